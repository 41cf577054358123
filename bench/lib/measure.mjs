// Runs a child process and measures wall time and peak RSS: GNU time's %M when /usr/bin/time
// exists, else by polling /proc/<pid>/status VmHWM (a lower bound if the peak is very brief).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GNU_TIME = '/usr/bin/time';
export const rssMethod = fs.existsSync(GNU_TIME) ? 'GNU time %M' : '/proc VmHWM polling';

export function runMeasured(command, args, { cwd, env } = {}) {
  const timeFile = path.join(os.tmpdir(), `trajaudit-bench-time-${process.pid}-${Date.now()}.txt`);
  const useTime = rssMethod === 'GNU time %M';
  const [cmd, argv] = useTime ? [GNU_TIME, ['-f', '%M', '-o', timeFile, command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    // Kept as the chunks read, decoded once at the end: decoding each 64 KiB chunk as it comes
    // takes CPU from the measured command, which waits on the pipe meanwhile.
    const stdout = [];
    const stderr = [];
    let hwmKiB = 0;
    child.stdout.on('data', (d) => stdout.push(d));
    child.stderr.on('data', (d) => stderr.push(d));
    const poll = useTime
      ? null
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) hwmKiB = Math.max(hwmKiB, Number(m[1]));
          } catch {
            // the process just exited
          }
        }, 20);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (poll) clearInterval(poll);
      let peakRssKiB = hwmKiB;
      if (useTime) {
        try {
          const lines = fs.readFileSync(timeFile, 'utf8').trim().split('\n');
          peakRssKiB = Number(lines[lines.length - 1]);
        } catch {
          peakRssKiB = NaN;
        }
        fs.rmSync(timeFile, { force: true });
      }
      resolve({ exitCode: code, signal, wallSeconds, peakRssKiB, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() });
    });
  });
}
