import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runJson, tempDir } from '../helpers/run-cli.js';

// usage-ledger.jsonl and session-index.jsonl are upserted (docs/formats.md#usage-ledgerjsonl): one row per
// session, the latest write winning, also when the session is in two ledger files (a ledger
// copied into a session dir, two homes in one --db).
const SESSION = '20260822-090000-cafe0001';
const ledger = (ts: number, cost: number) => JSON.stringify({ ts, sessionId: SESSION, promptTotal: cost * 1000, costUSD: cost });
const index = (ts: number, status: string) => JSON.stringify({ session_id: SESSION, ts, exit_status: status, real_errors: status === 'error' ? 2 : 0 });

function write(file: string, ...lines: string[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
}

function home(root: string, top: { ledger: string[]; index: string[] }, copied: { ledger: string[]; index: string[] }): string {
  write(path.join(root, SESSION, 'events.jsonl'), JSON.stringify({ event: 'SessionStart', session_id: SESSION, timestamp: '2026-08-22T01:00:00.000Z', data: {} }));
  write(path.join(root, 'usage-ledger.jsonl'), ...top.ledger);
  write(path.join(root, 'session-index.jsonl'), ...top.index);
  write(path.join(root, SESSION, 'usage-ledger.jsonl'), ...copied.ledger);
  write(path.join(root, SESSION, 'session-index.jsonl'), ...copied.index);
  return root;
}

const sql = async (query: string, args: string[]) => {
  const { value, run } = await runJson<Record<string, unknown>[]>(['sql', query, ...args]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return value;
};

const LEDGER = `SELECT session_id, ts, cost_usd, line FROM usage_ledger`;
const INDEX = `SELECT session_id, ts, exit_status, real_errors FROM session_index`;

describe('usage_ledger and session_index: one row per session across ledger files', () => {
  const work = tempDir();
  afterAll(work.cleanup);

  it('a stale copy in a session dir does not add a second row: the later ts wins', async () => {
    const root = home(path.join(work.dir, 'a'),
      { ledger: [ledger(1787360520, 0.3)], index: [index(1787360520, 'error')] },
      { ledger: [ledger(1787360000, 0.1)], index: [index(1787360000, 'incomplete')] });
    expect(await sql(LEDGER, [root])).toEqual([{ session_id: SESSION, ts: '2026-08-22T01:02:00.000Z', cost_usd: 0.3, line: 1 }]);
    expect(await sql(`SELECT sum(cost_usd) AS cost, count(*) AS n FROM usage_ledger`, [root])).toEqual([{ cost: 0.3, n: 1 }]);
    expect(await sql(INDEX, [root])).toEqual([{ session_id: SESSION, ts: '2026-08-22T01:02:00.000Z', exit_status: 'error', real_errors: 2 }]);
    // The rows tables keep every line.
    expect(await sql(`SELECT count(*) AS n FROM usage_ledger_rows`, [root])).toEqual([{ n: 2 }]);
  });

  it('where the newer row is decides nothing: a newer copy in the session dir wins over the home ledger', async () => {
    const root = home(path.join(work.dir, 'b'),
      { ledger: [ledger(1787360000, 0.1)], index: [index(1787360000, 'incomplete')] },
      { ledger: [ledger(1787360520, 0.3)], index: [index(1787360520, 'error')] });
    expect(await sql(LEDGER, [root])).toEqual([{ session_id: SESSION, ts: '2026-08-22T01:02:00.000Z', cost_usd: 0.3, line: 1 }]);
    expect(await sql(INDEX, [root])).toEqual([{ session_id: SESSION, ts: '2026-08-22T01:02:00.000Z', exit_status: 'error', real_errors: 2 }]);
  });

  it('within one file the last line still wins (legacy append-era duplicates), whatever its ts', async () => {
    const root = home(path.join(work.dir, 'c'),
      { ledger: [ledger(1787360600, 0.2), ledger(1787360500, 0.4)], index: [index(1787360600, 'incomplete'), index(1787360500, 'ok')] },
      { ledger: [ledger(1787360000, 0.1)], index: [index(1787360000, 'incomplete')] });
    expect(await sql(LEDGER, [root])).toEqual([{ session_id: SESSION, ts: '2026-08-22T01:01:40.000Z', cost_usd: 0.4, line: 2 }]);
    expect(await sql(INDEX, [root])).toEqual([{ session_id: SESSION, ts: '2026-08-22T01:01:40.000Z', exit_status: 'ok', real_errors: 0 }]);
  });

  it('two homes loaded into one --db: one row per session', async () => {
    const db = path.join(work.dir, 'two.duckdb');
    const first = path.join(work.dir, 'home1');
    const second = path.join(work.dir, 'home2');
    write(path.join(first, SESSION, 'events.jsonl'), JSON.stringify({ event: 'SessionStart', session_id: SESSION, timestamp: '2026-08-22T01:00:00.000Z', data: {} }));
    write(path.join(first, 'usage-ledger.jsonl'), ledger(1787360520, 0.3));
    write(path.join(second, 'usage-ledger.jsonl'), ledger(1787360000, 0.1), JSON.stringify({ ts: 1787360000, sessionId: 'other', costUSD: 0.5 }));
    for (const home of [first, second]) {
      const { run } = await runJson(['sql', 'SELECT 1', home, '--db', db]);
      expect(run.code).toBe(0);
    }
    expect(await sql(`SELECT session_id, cost_usd FROM usage_ledger ORDER BY session_id`, ['--db', db])).toEqual([
      { session_id: SESSION, cost_usd: 0.3 },
      { session_id: 'other', cost_usd: 0.5 },
    ]);
  });
});
