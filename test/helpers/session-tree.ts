// Builds a throwaway trajectories home with one session's events.jsonl, for tests that need a few
// hand-written events (window edges, restarted agents) rather than a bundled fixture.
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './run-cli.js';

export type EventLine = Record<string, unknown> | string;

/** `<temp>/trajectories/sessions/<sessionId>/events.jsonl` with one line per event (strings as they are). */
export function sessionTree(sessionId: string, events: EventLine[]): { home: string; cleanup: () => void } {
  const { dir, cleanup } = tempDir('trajaudit-tree-');
  const session = path.join(dir, 'trajectories', 'sessions', sessionId);
  fs.mkdirSync(session, { recursive: true });
  const lines = events.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
  fs.writeFileSync(path.join(session, 'events.jsonl'), lines.join('\n') + '\n');
  return { home: dir, cleanup };
}

/** One event line in the sid-code envelope (docs/formats.md#the-envelope). */
export function event(sessionId: string, name: string, timestamp: string | undefined, data: Record<string, unknown>): Record<string, unknown> {
  return timestamp === undefined ? { event: name, session_id: sessionId, data } : { event: name, session_id: sessionId, timestamp, data };
}
