// Contender (e), a floor for (c): the SQL `trajaudit load` runs for events.jsonl, alone. The same
// read_json columns, row numbers and hot-field projection into the same table, with load's
// settings (two connections of one DuckDB thread, 256 MiB transactions, a 192 MB memory limit,
// a checkpoint at the end), and none of load's other work: no strict line scan, no ledger, no
// other files. Load cannot beat this; it shows how much of load's time is DuckDB's own.
//   node bench/lib/floor-duckdb.mjs <files-list.txt> <db-file> [without]
// `without` (for the CPU budget, not the bench's own runs) is a comma list of the parts of the
// work to leave out, to see what each costs: `fsst` (FSST and ZSTD tried on each segment, as
// load has since session 16), `hot` (the hot fields, projected from a second parse of data: the
// columns are NULL), `data` (the data column is NULL).
import fs from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [listFile, dbFile, without = ''] = process.argv.slice(2);
const leftOut = new Set(without.split(',').filter(Boolean));
const unknown = [...leftOut].filter((part) => !['fsst', 'hot', 'data'].includes(part));
if (unknown.length > 0) {
  process.stderr.write(`floor-duckdb: unknown part to leave out: ${unknown.join(', ')}; the parts are fsst, hot and data\n`);
  process.exit(2);
}
const files = fs.readFileSync(listFile, 'utf8').split('\n').filter(Boolean);
const started = process.hrtime.bigint();
const instance = await DuckDBInstance.create(dbFile, { memory_limit: '192MB', threads: '1' });
const first = await instance.connect();
if (leftOut.has('fsst')) await first.run(`SET disabled_compression_methods = 'fsst,zstd'`);
await first.run(`CREATE TABLE events (file_id BIGINT, session_id VARCHAR, line BIGINT, ts TIMESTAMPTZ, event VARCHAR,
  envelope_session_id VARCHAR, cwd VARCHAR, idx BIGINT, agent_id VARCHAR, type VARCHAR, phase VARCHAR, data JSON)`);
const HOT = `'{"index":"BIGINT","agent_id":"VARCHAR","agentId":"VARCHAR","type":"VARCHAR","phase":"VARCHAR"}'`;
const hot = leftOut.has('hot') ? 'NULL, NULL, NULL, NULL' : 'h."index", coalesce(h.agent_id, h.agentId), h.type, h.phase';
const transform = leftOut.has('hot') ? '' : `json_transform(data, ${HOT}) AS h, `;
const insert = (file, id) => `INSERT INTO events SELECT ${id}, 's', ord, TRY_CAST(timestamp AS TIMESTAMPTZ), event, session_id, cwd,
    ${hot}, ${leftOut.has('data') ? 'NULL' : 'data'}
  FROM (SELECT *, ${transform}row_number() OVER () AS ord
        FROM read_json('${file.replaceAll("'", "''")}', format='newline_delimited', ignore_errors=true, maximum_object_size=2097152,
          columns={event: 'VARCHAR', session_id: 'VARCHAR', timestamp: 'VARCHAR', cwd: 'VARCHAR', data: 'JSON'}))`;
const queue = files.map((file, id) => [file, id]);
const connections = [first, await instance.connect()];
await Promise.all(connections.map(async (connection) => {
  while (queue.length) {
    const group = [];
    for (let bytes = 0; queue.length && bytes < 256 * 2 ** 20; ) {
      const next = queue.shift();
      group.push(next);
      bytes += fs.statSync(next[0]).size;
    }
    await connection.run('BEGIN');
    for (const [file, id] of group) await connection.run(insert(file, id));
    await connection.run('COMMIT');
  }
}));
await first.run('CHECKPOINT');
const reader = await first.runAndReadAll('SELECT count(*)::BIGINT AS n FROM events');
const rows = Number(reader.getRowObjects()[0].n);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
for (const connection of connections) connection.closeSync();
instance.closeSync();
process.stdout.write(`${JSON.stringify({ rows, innerSeconds: seconds })}\n`);
