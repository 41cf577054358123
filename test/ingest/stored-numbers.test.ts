// What docs/tables.md#numbers-in-stored-json says, pinned: plain integers of any size and numbers past
// a double's range keep their digits in `data`; other numbers with a fraction or exponent are
// stored as the nearest double (DuckDB's JSON reader; RFC 8259 §6), `idx` included; the ledgers'
// `record` is the line as written.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli, runJson, tempDir } from '../helpers/run-cli.js';

let work: ReturnType<typeof tempDir>;
let home: string;
beforeEach(() => {
  work = tempDir();
  home = path.join(work.dir, 'home');
  const session = path.join(home, 'trajectories', 'sessions', 's1');
  fs.mkdirSync(session, { recursive: true });
  const envelope = '"event":"StreamPhase","session_id":"s1","timestamp":"2026-07-30T10:31:03.412Z"';
  fs.writeFileSync(path.join(session, 'events.jsonl'), [
    `{${envelope},"data":{"index":9007199254740993,"big":18446744073709551617,"h":1e400,"a":0.1000000000000000055511151231257827,"d":1e-400,"e":4e0}}`,
    `{${envelope},"data":{"index":9007199254740993.0}}`,
  ].join('\n') + '\n');
  fs.writeFileSync(path.join(home, 'usage-ledger.jsonl'), '{"sessionId":"s1","ts":1787278600,"x":0.1000000000000000055511151231257827}\n');
  // The same JSON in the files parsed in Node: it reaches DuckDB as the text written, never through JSON.parse.
  fs.writeFileSync(path.join(session, 'warn.log'), `[2026-07-30T10:31:03.412Z] [WARN] [APP] hi ${SAME}\n`);
  fs.writeFileSync(path.join(session, 'heartbeat.txt'), `{"ts":"2026-07-30T10:31:03.412Z","session_id":"s1","n":${SAME}}`);
  fs.writeFileSync(path.join(session, 'session-summary.json'), `{\n  "session_id": "s1",\n  "n": ${SAME}\n}\n`);
});

/** Big and out-of-range numbers, an exponent and two equal keys. */
const SAME = '{"big":18446744073709551617,"h":1e400,"e":4e0,"a":1,"a":2}';
const STORED = '{"big":18446744073709551617,"h":1e400,"e":4.0,"a":1,"a":2}';

it('numbers and repeated keys in warn_lines.data, heartbeats.record and session_summaries.summary are stored as in events.data', async () => {
  const query = `SELECT (SELECT data::VARCHAR FROM warn_lines) AS warn, (SELECT (record->'n')::VARCHAR FROM heartbeats) AS heartbeat,
    (SELECT (summary->'n')::VARCHAR FROM session_summaries) AS summary, (SELECT data->>'a' FROM warn_lines) AS first_a`;
  expect((await runJson<unknown[]>(['sql', query, home])).value).toEqual([{ warn: STORED, heartbeat: STORED, summary: STORED, first_a: '1' }]);
});
afterEach(() => work.cleanup());

it.each([['direct', {}], ['staged', { TRAJAUDIT_READER: 'staged' }]])('numbers in stored JSON (%s reader)', async (_reader, env) => {
  const query = `SELECT line, idx, data::VARCHAR AS stored FROM events ORDER BY line`;
  expect((await runCli(['sql', query, home, '--format', 'csv'], { env })).stdout.split('\r\n')).toEqual([
    'line,idx,stored',
    '1,9007199254740993,"{""index"":9007199254740993,""big"":18446744073709551617,""h"":1e400,""a"":0.1,""d"":0.0,""e"":4.0}"',
    '2,9007199254740992,"{""index"":9007199254740992.0}"',
    '',
  ]);
  expect((await runCli(['sql', 'SELECT record::VARCHAR AS r FROM usage_ledger_rows', home, '--format', 'csv'], { env })).stdout)
    .toBe('r\r\n"{""sessionId"":""s1"",""ts"":1787278600,""x"":0.1000000000000000055511151231257827}"\r\n');
});
