// After `trajaudit load`, reads the database (read-only) to cross-check it against the corpus:
// events rows, and the input ledger's malformed lines for events.jsonl files. Column names are
// discovered, not assumed, so the bench survives schema details it does not own.
//   node bench/lib/db-counts.mjs <db-file>
import { DuckDBInstance } from '@duckdb/node-api';

const [dbFile] = process.argv.slice(2);
const instance = await DuckDBInstance.create(dbFile, { access_mode: 'READ_ONLY' });
const connection = await instance.connect();
const rows = async (sql) => (await connection.runAndReadAll(sql)).getRowObjects();
const one = async (sql) => {
  try {
    return Number(Object.values((await rows(sql))[0])[0]);
  } catch {
    return null;
  }
};
const columns = async (table) =>
  (await rows(`SELECT column_name FROM information_schema.columns WHERE table_name = '${table}'`)).map((r) => r.column_name);

const result = { eventsRows: await one('SELECT count(*) FROM events') };
const problemCols = await columns('input_problems');
const fileCol = ['path', 'file', 'relative_path'].find((c) => problemCols.includes(c));
if (fileCol) {
  result.eventsProblems = await one(`SELECT count(*) FROM input_problems WHERE "${fileCol}" LIKE '%events.jsonl'`);
  result.problemsWithLine = await one(`SELECT count(*) FROM input_problems WHERE "${fileCol}" LIKE '%events.jsonl' AND line IS NOT NULL`);
}
const fileCols = await columns('input_files');
const fileKey = ['path', 'file', 'relative_path'].find((c) => fileCols.includes(c));
if (fileKey) {
  for (const c of ['lines', 'valid', 'malformed', 'blank']) {
    if (fileCols.includes(c)) result[`ledger_${c}`] = await one(`SELECT sum("${c}") FROM input_files WHERE "${fileKey}" LIKE '%events.jsonl'`);
  }
}
connection.closeSync();
instance.closeSync();
process.stdout.write(`${JSON.stringify(result)}\n`);
