import type { Database } from '../db/database.js';
import { UsageError } from '../errors.js';

/**
 * SESSION as a user types it: the full id, a unique prefix, or the 8-hex suffix (docs/formats.md#session-ids).
 * A full id is that session even when it is also the start or the end of others (old-format ids
 * are 8 hex digits, the suffix's form): `warnings` then names them.
 */
export async function resolveSession(db: Database, wanted: string, warnings: string[]): Promise<string> {
  // An empty id would match every session as a prefix (an unset shell variable, say).
  if (wanted.trim() === '') throw new UsageError('the session id is empty; pass a full session id, a unique prefix or the 8-hex suffix');
  const table = await db.all(
    `SELECT session_id FROM (SELECT session_id FROM session_dirs UNION SELECT DISTINCT session_id FROM events UNION SELECT session_id FROM agent_sessions)
     WHERE session_id = $w OR starts_with(session_id, $w) OR (length($w) = 8 AND ends_with(session_id, '-' || $w))
     ORDER BY session_id`,
    { w: wanted },
  );
  const ids = table.rows.map((r) => r.session_id as string);
  if (ids.includes(wanted)) {
    const others = ids.filter((id) => id !== wanted);
    if (others.length > 0) warnings.push(`session ${JSON.stringify(wanted)} is that session's full id, and also the start or end of ${others.length === 1 ? 'another' : `${others.length} others`} (${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}); pass the full id to mean ${others.length === 1 ? 'it' : 'one of them'}`);
    return wanted;
  }
  if (ids.length === 1) return ids[0];
  if (ids.length === 0) throw new UsageError(`no session matches ${JSON.stringify(wanted)}; list them with: trajaudit sql "SELECT source, session_id FROM agent_sessions"`);
  throw new UsageError(`session ${JSON.stringify(wanted)} is ambiguous; it matches:\n  ${ids.join('\n  ')}\npass more of the id`);
}
