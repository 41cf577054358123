#!/usr/bin/env node
// The bin: main() wired to this process — argv, stdout, stderr, signals and the exit code.
import fs from 'node:fs';
import { InputError } from './errors.js';
import { main, type Io } from './main.js';
import { removeTempDirs } from './temp-dirs.js';

// A reader that stops early (`trajaudit sql … | head`) closes the pipe: stop quietly, as cat does.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
// A reader of stderr gone: nowhere left to say anything; the exit code still says how it went.
process.stderr.on('error', () => {});

// Node's stream for a file or device on stdout drops the rest of a short write without a word (a
// full disk or `ulimit -f` cut a SARIF document with exit 0), and its error on /dev/full escaped
// as a stack trace: such stdout is written with writeSync, and a failure is an InputError.
const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large (a file-size limit, ulimit -f?)',
  EIO: 'input/output error',
};

function cannotWrite(error: NodeJS.ErrnoException): InputError {
  const why = REASONS[error.code ?? ''] ?? error.message;
  return new InputError(`cannot write the output to stdout: ${why}; what was written is incomplete: free space, raise the limit or send the output elsewhere, and run again`);
}

/** Whether stdout is a file or a device other than a terminal (written with writeSync, not a stream). */
function writtenDirectly(): boolean {
  try {
    const stat = fs.fstatSync(1);
    return stat.isFile() || (stat.isCharacterDevice() && !process.stdout.isTTY);
  } catch {
    return false;
  }
}

async function writeStdout(text: string): Promise<void> {
  if (writtenDirectly()) {
    const bytes = Buffer.from(text);
    try {
      // A short write is followed by another, which fails with the reason (ENOSPC, EFBIG).
      for (let at = 0; at < bytes.length; ) {
        const written = fs.writeSync(1, bytes, at);
        if (written === 0) throw Object.assign(new Error('nothing written'), { code: 'ENOSPC' });
        at += written;
      }
    } catch (error) {
      throw cannotWrite(error as NodeJS.ErrnoException);
    }
    return;
  }
  // A pipe or a terminal: the stream; a reader gone (EPIPE) is handled where stdout's errors are.
  await new Promise<void>((resolve, reject) => {
    process.stdout.write(text, (error) => (error && (error as NodeJS.ErrnoException).code !== 'EPIPE' ? reject(cannotWrite(error)) : resolve()));
  });
}

/**
 * On SIGINT, SIGTERM and SIGHUP (a closed terminal, a dropped ssh session) a data command's temp
 * dirs go, and the signal is raised again to end the process as it would have. DuckDB is not
 * closed from the handler (closing it mid-query hangs); the database is left as any interrupted
 * load leaves it.
 */
function removingTempDirsOnSignals(): void {
  process.once('exit', removeTempDirs);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      removeTempDirs();
      process.kill(process.pid, signal);
    });
  }
}

const io: Io = {
  stdout: {
    write: writeStdout,
    get isTTY() {
      return Boolean(process.stdout.isTTY);
    },
    get columns() {
      return process.stdout.columns;
    },
  },
  stderr: {
    write: (text) => void process.stderr.write(text),
    get isTTY() {
      return Boolean(process.stderr.isTTY);
    },
    get columns() {
      return process.stderr.columns;
    },
  },
  onDataCommand: removingTempDirsOnSignals,
};

process.exitCode = await main(process.argv.slice(2), io);
