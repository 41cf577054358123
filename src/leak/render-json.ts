import { summarize, type LeakReport } from './report.js';

/**
 * The `leak-check --format json` document (version 1):
 * {
 *   "version": 1,
 *   "command": ["npm", "test"],            // argv as run, no shell
 *   "exitCode": 1,                         // what trajaudit exits with
 *   "commandExitCode": 0,                  // the command's exit code; 128 + signo if killed
 *   "signal": null,                        // e.g. "SIGTERM" when a signal ended the command
 *   "watched": [{
 *     "dir": "~/.sid-code/tasks",          // as given to --watch
 *     "created": false,                    // did not exist before, exists after
 *     "notDirectory": null,                // or { "kind": "file" | "link" | "dirLink" | "other", "bytes": 2 }:
 *                                          // the command left that at the watched path (a leak; after.exists
 *                                          // is false; "link": a link to nothing, "dirLink": a link to another
 *                                          // directory than before, bytes = the link's own)
 *     "leaked": true,                      // this dir fails the run
 *     "before": { "exists": true, "files": 3, "bytes": 120 },   // files = non-directories
 *     "after":  { "exists": true, "files": 4, "bytes": 131 },
 *     "added":   [{ "path": "a/new.txt", "bytes": 11 }],        // not matched by --allow
 *     "changed": [{ "path": "old.txt", "bytesBefore": 5, "bytesAfter": 5 }],
 *     "unreadable": [{ "path": "cache/", "error": "EACCES" }], // listed before, not after: fails the run
 *     "removed": [{ "path": "gone.txt", "bytes": 5 }],          // never fails the run
 *     "allowed": [{ "path": "cache/x", "change": "added", "bytes": 3 }]
 *   }],
 *   "summary": { "dirs": 1, "leakedDirs": 1, "added": 1, "changed": 1, "removed": 1, "allowed": 1, "leaked": true }
 * }
 * Paths are relative to the watched dir, '/'-separated; a directory path ends in '/' and is
 * listed only when nothing listed lies inside it (e.g. an empty dir left behind).
 */
export function renderLeakJson(report: LeakReport): string {
  const document = { version: 1, ...report, summary: summarize(report.watched) };
  return `${JSON.stringify(document, null, 2)}\n`;
}
