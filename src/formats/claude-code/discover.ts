// Which named paths are Claude Code's, and the walk of its layout (docs/inputs.md#claude-code):
// a config dir (~/.claude) → projects/ → a project dir per cwd → <session>.jsonl, with the
// session's sidechains in <session>/subagents/ (or, older builds, agent-*.jsonl beside it).
import path from 'node:path';
import type { DiscoveryWalker, WalkEntry } from '../../discover/walker.js';

const SIDECHAIN_META = /^agent-.+\.meta\.json$/;
/** sid-code's own JSONL names, which are never Claude Code transcripts. */
const SID_CODE_JSONL = new Set(['events.jsonl', 'errors.jsonl', 'usage-ledger.jsonl', 'session-index.jsonl']);

const isTranscriptName = (name: string) => name.endsWith('.jsonl') && !SID_CODE_JSONL.has(name);
const isTranscript = (e: WalkEntry) => e.isFile && isTranscriptName(e.name);

/** A project dir: transcripts at its top. */
function isProjectDir(w: DiscoveryWalker, dir: string): boolean {
  return w.peek(dir).some(isTranscript);
}

/** A session's own dir: its subagents/ (the sidechains) or its tool-results/. */
function isSessionDir(w: DiscoveryWalker, dir: string): boolean {
  return w.peek(dir).some((e) => e.isDirectory && (e.name === 'subagents' || e.name === 'tool-results'));
}

/** A user's home (or a copy of one): its .claude, with projects/ in it. */
function holdsConfigDir(w: DiscoveryWalker, dir: string): boolean {
  return w.peek(dir).some((e) => e.isDirectory && e.name === '.claude') && w.peek(path.join(dir, '.claude')).some((e) => e.isDirectory && e.name === 'projects');
}

function holdsProjects(w: DiscoveryWalker, dir: string): boolean {
  return w.peek(dir).some((e) => e.isDirectory && !e.link && isProjectDir(w, path.join(dir, e.name)));
}

/**
 * How a named path is Claude Code's: `first` when nothing else could be meant (a `.claude` dir, a
 * dir holding projects/), `last` when it is only when no other format reads it (a project dir: any
 * dir of .jsonl files), null when it is not.
 */
export function claimClaudeCode(w: DiscoveryWalker, abs: string, isDirectory: boolean): 'first' | 'last' | null {
  const name = path.basename(abs);
  if (!isDirectory) return isTranscriptName(name) || SIDECHAIN_META.test(name) ? 'last' : null;
  if (name === '.claude') return 'first';
  const projects = w.peek(abs).find((e) => e.isDirectory && e.name === 'projects');
  if (projects && holdsProjects(w, path.join(abs, 'projects'))) return 'first';
  // Claude Code's projects dir, also before its first session (a default home just made): empty, or in a `.claude`.
  if (name === 'projects' && (holdsProjects(w, abs) || path.basename(path.dirname(abs)) === '.claude' || w.peek(abs).length === 0)) return 'first';
  if (isProjectDir(w, abs) || isSessionDir(w, abs) || holdsProjects(w, abs) || name === 'subagents' || holdsConfigDir(w, abs)) return 'last';
  return null;
}

export function walkClaudeCode(w: DiscoveryWalker, abs: string, isDirectory: boolean): void {
  if (!isDirectory) return readFile(w, abs);
  const name = path.basename(abs);
  const projects = w.peek(abs).find((e) => e.isDirectory && e.name === 'projects');
  if (name === '.claude' || (projects && name !== 'projects' && !isProjectDir(w, abs))) return configDir(w, abs);
  if (name === 'subagents') return subagentsDir(w, abs);
  // A home holding .claude: only .claude is looked into, its siblings are not Claude Code's.
  if (!isProjectDir(w, abs) && holdsConfigDir(w, abs)) return configDir(w, path.join(abs, '.claude'));
  if (isProjectDir(w, abs)) return projectDir(w, abs);
  if (isSessionDir(w, abs)) return sessionDir(w, abs);
  return projectsDir(w, abs);
}

function readFile(w: DiscoveryWalker, abs: string, listed?: WalkEntry): void {
  w.file(abs, SIDECHAIN_META.test(path.basename(abs)) ? 'claude-agent-meta' : 'claude-transcript', null, listed);
}

/** ~/.claude: only projects/ holds transcripts; the rest (settings, todos, history) is not read. */
function configDir(w: DiscoveryWalker, dir: string): void {
  for (const e of w.list(dir)) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory && e.name === 'projects') projectsDir(w, abs);
    else w.skip(abs, 'not read: Claude Code keeps its transcripts in projects/');
  }
}

function projectsDir(w: DiscoveryWalker, dir: string): void {
  for (const e of w.list(dir)) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory) projectDir(w, abs);
    else w.skip(abs, 'not a project directory');
  }
}

function projectDir(w: DiscoveryWalker, dir: string): void {
  for (const e of w.list(dir)) {
    const abs = path.join(dir, e.name);
    if (isTranscript(e)) readFile(w, abs, e);
    else if (e.isDirectory && !e.link) sessionDir(w, abs);
    else w.skip(abs, 'not a Claude Code transcript');
  }
}

function sessionDir(w: DiscoveryWalker, dir: string): void {
  for (const e of w.list(dir)) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory && e.name === 'subagents') subagentsDir(w, abs);
    else if (e.isDirectory && e.name === 'tool-results') w.skip(abs, 'not read: tool outputs spilled to disk');
    else w.skip(abs, 'not a Claude Code transcript');
  }
}

function subagentsDir(w: DiscoveryWalker, dir: string): void {
  for (const e of w.list(dir)) {
    const abs = path.join(dir, e.name);
    if (e.isFile && (isTranscriptName(e.name) || SIDECHAIN_META.test(e.name))) readFile(w, abs, e);
    else w.skip(abs, 'not a sidechain transcript or its .meta.json');
  }
}
