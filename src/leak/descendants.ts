// The processes a command started, and theirs: a signal aimed at leak-check alone (SIGTERM from a
// CI timeout, SIGHUP) must reach them all, or a test runner's workers outlive the shell that
// started them and go on writing into the watched dirs after the report was taken. The terminal's
// Ctrl-C already reaches the whole foreground process group. Read from /proc (Linux); where there
// is none, the command's own process alone.
import fs from 'node:fs';

/** Parent of each running process, from /proc/<pid>/stat (its name, in parens, may hold spaces and parens). */
function parents(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return children;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // ended while we looked
    }
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent)!.push(Number(entry));
  }
  return children;
}

/** `pid` and every process below it, parents before their children. */
export function processTree(pid: number): number[] {
  const children = parents();
  const tree = [pid];
  for (let k = 0; k < tree.length; k += 1) tree.push(...(children.get(tree[k]) ?? []));
  return tree;
}

/** Sends `signal` to the whole tree at once, as it stood when the signal came (one that ended meanwhile is skipped). */
export function signalTree(pid: number, signal: NodeJS.Signals): void {
  for (const each of processTree(pid)) {
    try {
      process.kill(each, signal);
    } catch {
      // already gone
    }
  }
}
