#!/usr/bin/env node
// The floor a canned query is held to (issue 24): the same SQL run by raw DuckDB on the same
// database, with nothing of trajaudit around it: open read-only under the 160 MB limit queries have, bind
// the header's default parameters as literals, read every row. Prints the row count.
//   node bench/lib/raw-query.mjs DB QUERY_FILE
import fs from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [db, file] = process.argv.slice(2);
const text = fs.readFileSync(file, 'utf8');
// `-- param: name TYPE = default`: the default is SQL already (NULL, a number or a quoted string).
const defaults = new Map([...text.matchAll(/^-- param: (\w+) \w+ = (.*)$/gm)].map((m) => [m[1], m[2]]));
const sql = text.replace(/\$(\w+)\b/g, (whole, name) => (defaults.has(name) ? `(${defaults.get(name)})` : whole));
const instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY', memory_limit: '160MB' });
const connection = await instance.connect();
await connection.run(`SET TimeZone = 'UTC'`);
const reader = await connection.runAndReadAll(sql);
process.stdout.write(`${reader.getRowObjectsJson().length}\n`);
