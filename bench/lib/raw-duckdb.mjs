// Contender (a): raw DuckDB read_json with typed columns over the same files, into a table.
// Runs as its own child process so its peak RSS is its own. Prints one JSON line.
//   node bench/lib/raw-duckdb.mjs <files-list.txt> <db-file | :memory:> [memory-limit]
// With a memory limit (load's 192MB), it shows what DuckDB's own reader does within load's budget.
import fs from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [listFile, dbFile, memoryLimit] = process.argv.slice(2);
const files = fs.readFileSync(listFile, 'utf8').split('\n').filter(Boolean);
const started = process.hrtime.bigint();
const instance = await DuckDBInstance.create(dbFile, memoryLimit ? { memory_limit: memoryLimit } : {});
const connection = await instance.connect();
const list = `[${files.map((f) => `'${f.replaceAll("'", "''")}'`).join(', ')}]`;
await connection.run(
  `CREATE TABLE raw_events AS SELECT * FROM read_json(${list}, format='newline_delimited', ignore_errors=true, ` +
    `columns={event: 'VARCHAR', session_id: 'VARCHAR', timestamp: 'TIMESTAMPTZ', cwd: 'VARCHAR', data: 'JSON'})`,
);
const reader = await connection.runAndReadAll('SELECT count(*)::BIGINT AS n FROM raw_events');
const rows = Number(reader.getRowObjects()[0].n);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
connection.closeSync();
instance.closeSync();
process.stdout.write(`${JSON.stringify({ rows, innerSeconds: seconds })}\n`);
