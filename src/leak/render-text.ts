import { inlineText, visibleText } from '../render/visible-text.js';
import type { Counts, DirReport } from './diff.js';
import { summarize, type LeakReport } from './report.js';

export function renderLeakText(report: LeakReport): string {
  // flatMap, not push(...): a dir can gain more files than a call can take arguments.
  const lines = [...report.watched.flatMap(dirLines), verdict(report)];
  return `${visibleText(lines.join('\n'))}\n`;
}

// File names are the watched command's to choose: shown as the tables show them (visible-text.ts).
function dirLines(dir: DirReport): string[] {
  const after = dir.notDirectory ? `${what(dir.notDirectory)}, not a directory` : counts(dir.after);
  const lines = [`${inlineText(dir.dir)}: before ${counts(dir.before)}; after ${after}`];
  for (const item of dir.added) lines.push(`  added    ${inlineText(item.path)} (${bytes(item.bytes)})`);
  for (const item of dir.changed) lines.push(`  changed  ${inlineText(item.path)} (${item.bytesBefore} → ${bytes(item.bytesAfter)})`);
  for (const item of dir.unreadable) lines.push(`  unreadable ${inlineText(item.path)} (listed before the command, not after: ${item.error}; what it holds now is not seen)`);
  for (const item of dir.removed) lines.push(`  removed  ${inlineText(item.path)} (${bytes(item.bytes)})`);
  for (const item of dir.allowed) lines.push(`  allowed  ${inlineText(item.path)} (${item.change}, ${bytes(item.bytes)})`);
  if (dir.created && dir.leaked && dir.added.length === 0 && dir.changed.length === 0) {
    lines.push('  created  (the watched dir itself, left behind empty)');
  }
  if (dir.notDirectory && dir.before.exists) lines.push(`  replaced (the watched dir itself, by ${what(dir.notDirectory)})`);
  else if (dir.notDirectory) lines.push(`  created  (${what(dir.notDirectory)} at the watched path itself, where a directory belongs)`);
  return lines;
}

function what(left: NonNullable<DirReport['notDirectory']>): string {
  if (left.kind === 'link') return 'a link to nothing';
  if (left.kind === 'dirLink') return 'a link to another directory';
  return left.kind === 'file' ? `a file of ${bytes(left.bytes)}` : 'a FIFO, socket or device';
}

function verdict(report: LeakReport): string {
  const s = summarize(report.watched);
  // A watched dir that leaks with nothing added or changed in it is named too, or the line
  // would read "leaked: 0 added, 0 changed".
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const leftAsFile = report.watched.filter((dir) => dir.notDirectory).length;
  const leftEmpty = report.watched.filter((dir) => dir.created && dir.leaked && !dir.notDirectory && dir.added.length === 0 && dir.changed.length === 0).length;
  const unreadable = report.watched.reduce((sum, dir) => sum + dir.unreadable.length, 0);
  const whole = [
    unreadable ? `, ${plural(unreadable, 'dir no longer readable', 'dirs no longer readable')}` : '',
    leftAsFile ? `, ${plural(leftAsFile, 'non-directory left where a watched dir belongs', 'non-directories left where watched dirs belong')}` : '',
    leftEmpty ? `, ${plural(leftEmpty, 'watched dir created and left empty', 'watched dirs created and left empty')}` : '',
  ].join('');
  const leak = s.leaked
    ? `leaked: ${s.added} added, ${s.changed} changed outside --allow${whole}${whole ? ',' : ''} in ${s.leakedDirs} of ${plural(s.dirs, 'watched dir', 'watched dirs')}`
    : `clean: nothing added or changed outside --allow in ${plural(s.dirs, 'watched dir', 'watched dirs')}`;
  const extra = [s.removed ? `${s.removed} removed` : '', s.allowed ? `${s.allowed} allowed` : ''].filter(Boolean);
  const tail = extra.length ? ` (${extra.join(', ')})` : '';
  if (report.commandExitCode === 0) return `leak-check: ${leak}${tail}`;
  const how = report.signal ? `was killed by ${report.signal}` : `exited ${report.commandExitCode}`;
  return `leak-check: command failed: ${shellWords(report.command)} ${how}; ${leak}${tail}`;
}

function counts(c: Counts): string {
  return c.exists ? `${c.files} ${c.files === 1 ? 'file' : 'files'}, ${bytes(c.bytes)}` : 'missing';
}

function bytes(n: number): string {
  return n === 1 ? '1 byte' : `${n} bytes`;
}

function shellWords(argv: string[]): string {
  return argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}
