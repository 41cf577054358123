// A struct whose fields share a name (an unnamed struct: row(1, 'a'), or (1, 'a') in a list) comes
// from @duckdb/node-api as an object keyed by field name, so all but the last field of each name
// are gone before trajaudit sees the value: such a result is refused, not shown short.
import type { DuckDBType } from '@duckdb/node-api';
import { duckdb } from './duckdb-api.js';

const { DuckDBArrayType, DuckDBListType, DuckDBMapType, DuckDBStructType, DuckDBUnionType } = duckdb;

/** The first struct type inside `type` (itself included) with a field name used twice, or null. */
export function structWithRepeatedNames(type: DuckDBType): DuckDBType | null {
  if (type instanceof DuckDBStructType) {
    if (new Set(type.entryNames).size < type.entryNames.length) return type;
    return firstOf(type.entryTypes);
  }
  if (type instanceof DuckDBListType || type instanceof DuckDBArrayType) return structWithRepeatedNames(type.valueType);
  if (type instanceof DuckDBMapType) return firstOf([type.keyType, type.valueType]);
  if (type instanceof DuckDBUnionType) return firstOf(type.memberTypes);
  return null;
}

function firstOf(types: readonly DuckDBType[]): DuckDBType | null {
  for (const t of types) {
    const found = structWithRepeatedNames(t);
    if (found) return found;
  }
  return null;
}
