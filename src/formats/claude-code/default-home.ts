import os from 'node:os';
import path from 'node:path';

/** Where Claude Code keeps its transcripts: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects; null with no home directory. */
export function claudeCodeHome(): string | null {
  const configured = process.env.CLAUDE_CONFIG_DIR;
  if (configured && configured.trim() !== '' && !/^~($|\/)/.test(configured)) return path.join(path.resolve(configured), 'projects');
  try {
    const home = os.homedir();
    return home === '' ? null : path.join(home, '.claude', 'projects');
  } catch {
    return null;
  }
}
