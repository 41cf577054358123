// A line that names an envelope key twice (`"data":{…},"data":{…}`) is valid JSON: it is loaded as
// before (the first value stored) and listed in the ledger as kind duplicate-key, since the later
// value is stored nowhere. Both readers agree, on a whole file and on an appended tail; a key in
// nested objects or inside strings is no key twice.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { duplicateTopLevelKeys } from '../../src/ingest/duplicate-keys.js';
import { runJson, tempDir } from '../helpers/run-cli.js';

const { dir, cleanup } = tempDir('trajaudit-duplicate-keys-');
afterAll(cleanup);

const S = '20260820-100000-0d0b1e00';
const line = (n: number, rest: string) => `{"event":"E${n}","session_id":"${S}","timestamp":"2026-08-20T10:00:0${n}.000Z",${rest}}`;
const LINES = [
  line(1, '"data":{"a":1}'),
  line(2, '"data":{"a":1},"data":{"a":2}'),
  line(3, '"data":{"data":{"data":1}}'), // nested: not the envelope's key twice
  line(4, '"data":{"text":"\\"data\\": twice \\"data\\""}'),
  `{"event":"E5","event":"E5b","session_id":"${S}","timestamp":"2026-08-20T10:00:05.000Z","data":{}}`,
];
const REASON = (keys: string) => `the top-level ${keys} named more than once: the first value is stored, the later ones nowhere`;

describe('a line naming an envelope key twice', () => {
  for (const reader of ['direct', 'staged']) {
    it(`is loaded (first value) and listed as duplicate-key, valid in the counts (${reader} reader, whole file and appended)`, async () => {
      const session = path.join(dir, reader, S);
      fs.mkdirSync(session, { recursive: true });
      const events = path.join(session, 'events.jsonl');
      fs.writeFileSync(events, `${LINES.slice(0, 3).join('\n')}\n`);
      const db = path.join(dir, `${reader}.duckdb`);
      const env = { TRAJAUDIT_READER: reader };
      expect((await runJson(['load', session, '--db', db], { env })).run.code).toBe(0);
      fs.appendFileSync(events, `${LINES.slice(3).join('\n')}\n`);
      const load = await runJson(['load', session, '--db', db], { env });
      expect(load.run).toMatchObject({ code: 0, stderr: 'trajaudit: 2 lines name a key twice: the first value is stored, the later ones nowhere; `trajaudit sources --section problems` lists them (kind duplicate-key)\n' });
      const rows = await runJson(['sql', `SELECT line, event, data::VARCHAR AS data FROM events ORDER BY line`, '--db', db]);
      expect(rows.value).toEqual([
        { line: 1, event: 'E1', data: '{"a":1}' },
        { line: 2, event: 'E2', data: '{"a":1}' },
        { line: 3, event: 'E3', data: '{"data":{"data":1}}' },
        { line: 4, event: 'E4', data: '{"text":"\\"data\\": twice \\"data\\""}' },
        { line: 5, event: 'E5', data: '{}' },
      ]);
      const ledger = await runJson<{ files: Record<string, unknown>[]; problems: Record<string, unknown>[]; totals: Record<string, number> }>(['sources', '--db', db]);
      expect(ledger.value.files[0]).toMatchObject({ lines: 5, valid: 5, blank: 0, malformed: 0 });
      expect(ledger.value.problems).toEqual([
        { where: `events.jsonl:2`, path: 'events.jsonl', line: 2, byte_offset: LINES[0].length + 1, kind: 'duplicate-key', reason: REASON('key "data" is'), excerpt: LINES[1].slice(0, 120) },
        { where: `events.jsonl:5`, path: 'events.jsonl', line: 5, byte_offset: LINES.slice(0, 4).join('\n').length + 1, kind: 'duplicate-key', reason: REASON('key "event" is'), excerpt: LINES[4].slice(0, 120) },
      ]);
      expect(ledger.value.totals).toMatchObject({ malformed: 0, duplicate_keys: 2 });
      // A fresh load of the whole file gives the same ledger.
      const fresh = await runJson<{ problems: unknown[] }>(['sources', session], { env });
      expect(fresh.value.problems).toEqual(ledger.value.problems);
    });
  }

  it('duplicateTopLevelKeys looks at the top level only, through strings and escapes', () => {
    expect(duplicateTopLevelKeys('{"a":1,"b":{"a":2},"c":["a","a"],"d":"\\"a\\""}')).toEqual([]);
    expect(duplicateTopLevelKeys('{"a":1,"b":2,"a":3,"b":{"x":1},"a":4}')).toEqual(['a', 'b']);
    expect(duplicateTopLevelKeys('{"\\u0061":1,"a":2}')).toEqual(['a']);
    expect(duplicateTopLevelKeys('{ "a" : [ {"a":1} ] , "a" : null }')).toEqual(['a']);
  });
});
