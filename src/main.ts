// The whole CLI as a function: argv in, text out through `io`, the exit code returned. It touches
// no process state (no exit, no handlers, no stdout), so tests run it in-process; cli.ts is the
// bin that wires it to the process. Command modules are imported lazily so that `check` and
// `--help` never load DuckDB (the CI guard must start fast).
import { Command, type CommanderError, Option } from 'commander';
import type { CommandResult, Progress } from './command-result.js';
import { ExitCode, exitCodeFor, FailedAfterWarnings, InputError, noSpaceError, UsageError } from './errors.js';
import { visibleText } from './render/visible-text.js';

const VERSION = '0.1.0';

/** Where a run writes: the command's output, and diagnostics and progress. */
export interface Io {
  stdout: Output;
  stderr: Output;
  /** Called as a data command starts: the bin removes their temp dirs on a signal from then on. */
  onDataCommand?: () => void;
}

export interface Output {
  /** Rejects (or throws) with an InputError when the text could not all be written. */
  write(text: string): void | Promise<void>;
  isTTY: boolean;
  /** The terminal's width, when it is one. */
  columns?: number;
}

/** A usage or help exit from deep inside commander: unwinds to main with its exit code. */
class Exit {
  constructor(readonly code: number) {}
}

const tabular = ['table', 'json', 'csv', 'md'];

/** A repeatable option. No default value: commander would print it in --help as "(default: [])". */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * A message on stderr. It quotes the input (event names, session dir and file names, DuckDB's
 * errors quoting a value), which an agent's tools wrote: shown as the tables show it, so that an
 * escape sequence in it cannot retitle the terminal, set its clipboard or overwrite the line.
 */
function diagnostic(io: Io, message: string): void {
  void io.stderr.write(`trajaudit: ${visibleText(message)}\n`);
}

/**
 * commander's own usage errors (unknown option or command, missing argument, a value outside the
 * choices) as the contract's one line, `trajaudit: what; what to do`, exit 2. commander writes
 * nothing itself (outputError below); its "(Did you mean …?)" line joins the message.
 */
function usageExit(io: Io, command: Command) {
  const helpFor = command.parent ? `trajaudit ${command.name()} --help` : 'trajaudit --help';
  return (error: CommanderError): never => {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') throw new Exit(0);
    // help() exits 0; `trajaudit` alone printed the help on stderr, a usage error.
    if (error.code === 'commander.help') throw new Exit(error.exitCode === 0 ? 0 : ExitCode.input);
    const [what, ...more] = error.message.replace(/^error: /, '').split('\n').filter((line) => line.trim() !== '');
    const hint = more.map((line) => line.replace(/^\((.*)\)$/, '$1').replace(/^Did you/, 'did you')).join(' ');
    diagnostic(io, `${what.replace(/\.$/, '')}; ${hint ? `${hint} ` : ''}run \`${helpFor}\` for usage`);
    throw new Exit(ExitCode.input);
  };
}

/**
 * The progress line on a terminal's stderr, rewritten in place. It is cut to the terminal's width:
 * a line that wraps leaves its first rows behind at every update. A terminal that takes no escapes
 * (TERM=dumb: Emacs' shell, log viewers) gets a carriage return and spaces instead of `ESC[2K`.
 */
function stderrProgress(io: Io, quiet: boolean): Progress {
  const debug = (message: string) => {
    if (process.env.TRAJAUDIT_DEBUG) void io.stderr.write(`${visibleText(message)}\n`);
  };
  if (quiet || !io.stderr.isTTY) return { update() {}, done() {}, debug };
  const dumb = process.env.TERM === 'dumb';
  let shown = 0;
  const clear = () => (dumb ? `\r${' '.repeat(shown)}\r` : '\r\x1b[2K');
  return {
    update(message) {
      const width = io.stderr.columns ?? 0;
      const line = width > 1 ? message.slice(0, width - 1) : message;
      void io.stderr.write(`${clear()}${line}`);
      shown = line.length;
    },
    done() {
      if (shown) void io.stderr.write(clear());
    },
    debug,
  };
}

/**
 * The width tables wrap their cells to: $COLUMNS when set (on a pipe too, to wrap a file or a
 * pager's text), else the terminal's; none on a pipe, where every row stays one line, as in psql.
 */
function outputWidth(io: Io): number | undefined {
  const columns = Number(process.env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return columns;
  return io.stdout.isTTY && (io.stdout.columns ?? 0) > 0 ? io.stdout.columns : undefined;
}

/**
 * Whether tables may dim their NULLs: stdout is a terminal that takes escapes (not TERM=dumb) and
 * NO_COLOR (no-color.org) is unset or empty.
 */
function outputColor(io: Io): boolean {
  return io.stdout.isTTY && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
}

/**
 * DuckDB's native binding could not be loaded: node_modules installed on another platform or
 * without optional packages (the binding is one), or Node run with --no-addons. Not a bug.
 */
function bindingError(thrown: unknown): InputError | null {
  const message = thrown instanceof Error ? thrown.message : '';
  if (!/@duckdb\/node-bindings|duckdb\.node|loading addons is disabled/.test(message)) return null;
  return new InputError(`DuckDB's native binding for ${process.platform}-${process.arch} could not be loaded (${message.split('\n')[0]}); run \`npm ci\` on this machine (node_modules from another platform, or installed without optional packages, lack it), and run Node without --no-addons`);
}

/** Runs `argv` (the arguments after the command name) and returns the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  let exitCode: number = ExitCode.ok;

  async function run(action: () => Promise<CommandResult>): Promise<void> {
    try {
      const result = await action();
      for (const warning of result.warnings ?? []) diagnostic(io, warning);
      if (result.output) await io.stdout.write(result.output);
      exitCode = result.exitCode;
    } catch (caught) {
      const thrown = caught instanceof FailedAfterWarnings ? caught.error : caught;
      if (caught instanceof FailedAfterWarnings) for (const warning of caught.warnings) diagnostic(io, warning);
      const error = noSpaceError(thrown) ?? bindingError(thrown) ?? thrown;
      const code = exitCodeFor(error);
      const message = error instanceof Error ? error.message : String(error);
      if (code === ExitCode.internal) {
        diagnostic(io, `internal error: ${message}`);
        if (process.env.TRAJAUDIT_DEBUG && error instanceof Error) void io.stderr.write(`${error.stack}\n`);
        else void io.stderr.write('This is a bug in trajaudit; rerun with TRAJAUDIT_DEBUG=1 for the stack and report it.\n');
      } else {
        diagnostic(io, message);
      }
      exitCode = code;
    }
  }

  /**
   * A command that reads data. Its temp dirs (temp-dirs.ts) hold copies of input data: they go
   * when it ends, and on a signal through the bin's handlers (leak-check outlives a Ctrl-C on purpose).
   */
  async function runData(action: () => Promise<CommandResult>): Promise<void> {
    io.onDataCommand?.();
    try {
      await run(action);
    } finally {
      (await import('./temp-dirs.js')).removeTempDirs();
    }
  }

  const program = new Command();
  program
    .name('trajaudit')
    .description('Reliability audits over coding-agent trajectories, and static CI checks over agent source.')
    .version(VERSION)
    .configureOutput({ writeErr: (s) => void io.stderr.write(s), writeOut: (s) => void io.stdout.write(s), outputError: () => {} })
    .helpCommand(false);

  const formatOption = (choices: string[], fallback: string) =>
    new Option('--format <format>', 'output format').choices(choices).default(fallback);

  /** A command that reads sid-code data: its own leading arguments, then the inputs, --db, --quiet. */
  function dataCommand(name: string, description: string, leading: [string, string][] = []): Command {
    const command = program.command(name).description(description);
    for (const [argument, help] of leading) command.argument(argument, help);
    return command
      .argument('[paths...]', 'inputs (default: $SID_CONFIG_DIR, else ~/.sid-code)')
      .option('--db <file>', 'load into (or read from) this DuckDB file instead of memory')
      .option('--quiet', 'no progress line on stderr, and no notice of lines that could not be read');
  }

  program
    .command('load')
    .description('ingest sid-code data into a persistent DuckDB file (incremental)')
    .argument('[paths...]', 'sid-code home, trajectories/sessions dir, session dirs, events.jsonl files, tasks dir (default: $SID_CONFIG_DIR, else ~/.sid-code)')
    .requiredOption('--db <file>', 'DuckDB database file to create or update (required)')
    .addOption(formatOption(tabular, 'table'))
    .option('--strict', 'exit 1 when any malformed line is found')
    .option('--quiet', 'no progress line on stderr, and no notice of lines that could not be read')
    .action((paths: string[], opts) =>
      runData(async () => {
        // Before DuckDB loads: its allocator reads the setting once (allocator.ts).
        const { chooseAllocator, LOAD_ALLOCATOR } = await import('./db/allocator.js');
        chooseAllocator(LOAD_ALLOCATOR);
        return (await import('./commands/load.js')).load({ paths, ...opts, width: outputWidth(io), color: outputColor(io) }, stderrProgress(io, Boolean(opts.quiet)));
      }),
    );

  dataCommand('sources', 'the input ledger: every file read, its lines, and every line that could not be read (table and md fold the .output files of a tasks dir into one row; json and csv list each)')
    .addOption(formatOption(tabular, 'table'))
    .option('--strict', 'exit 1 when any line or file could not be read')
    .addOption(new Option('--section <name>', 'print one part of the ledger only (csv prints files unless this names another)').choices(['files', 'problems', 'skipped', 'totals']))
    .action((paths: string[], opts) =>
      runData(async () => (await import('./commands/sources.js')).sources({ paths, ...opts, width: outputWidth(io), color: outputColor(io) }, stderrProgress(io, Boolean(opts.quiet)))),
    );

  dataCommand('sql', 'run ad-hoc SQL over the normalized tables', [
    ['<statement>', 'SQL text, e.g. "SELECT event, count(*) FROM events GROUP BY 1"'],
  ])
    .addOption(formatOption(tabular, 'table'))
    .action((statement: string, paths: string[], opts) =>
      runData(async () => (await import('./commands/sql.js')).sql({ statement, paths, ...opts, width: outputWidth(io), color: outputColor(io) }, stderrProgress(io, Boolean(opts.quiet)))),
    );

  program
    .command('queries')
    .description('list the canned queries, one line each; with NAME, one query: its description, parameters, columns and SQL file')
    .argument('[name]', 'the query to show in full')
    .addOption(formatOption(tabular, 'table'))
    .action((name: string | undefined, opts) => run(async () => (await import('./commands/queries.js')).queries({ name, ...opts, width: outputWidth(io) })));

  dataCommand('query', 'run one canned query (see `trajaudit queries`)', [['<name>', 'query name']])
    .option('--param <key=value>', 'bind a query parameter (repeatable, each key once)', collect)
    .option('--since <time>', 'only events at or after this time (ISO date/time, or 7d, 24h, 30m back from --until, else now)')
    .option('--until <time>', 'only events before this time (ISO date/time, or 7d, 24h, 30m back from now)')
    .option('--session <id>', 'only this session (full id, unique prefix or 8-hex suffix)')
    .option('--config <file>', 'trajaudit.config.json for tasks.testPatterns (default: ./trajaudit.config.json in the current directory, when there is one)')
    .addOption(formatOption(tabular, 'table'))
    .action((name: string, paths: string[], opts) =>
      runData(async () => (await import('./commands/query.js')).query({ name, paths, ...opts, param: opts.param ?? [], width: outputWidth(io), color: outputColor(io) }, stderrProgress(io, Boolean(opts.quiet)))),
    );

  dataCommand('timeline', "one session's events.jsonl, warn.log and errors.jsonl merged in time order", [
    ['<session>', 'full session id, a unique prefix, or the 8-hex suffix'],
  ])
    .option('--agent <id>', 'one subagent (any of its id forms) plus the untagged stream rows at its indices')
    .option('--around <time>', 'centre on this time: an ISO date/time (2026-08-19T10:31:28Z), or a span back from now (30m, 2h, 1d)')
    .option('--window <duration>', 'half-width of the --around window (default: 30s)')
    .option('--event <name>', 'keep only this event or log category (repeatable)', collect)
    .addOption(formatOption(['table', 'json', 'md'], 'table'))
    .action((session: string, paths: string[], opts) =>
      runData(async () => (await import('./commands/timeline.js')).timeline({ session, paths, ...opts, event: opts.event ?? [], width: outputWidth(io), color: outputColor(io) }, stderrProgress(io, Boolean(opts.quiet)))),
    );

  dataCommand('report', 'the weekly reliability report, with the previous window beside it')
    .option('--since <time>', 'window start (ISO date/time, or 7d, 24h back from --until); default: the last 7 whole UTC days')
    .option('--until <time>', 'window end (ISO date/time, or relative); default now, or today 00:00 UTC when --since is not given either')
    .option('--allow-empty', 'a window with no event is a report like any other (exit 0); without it, exit 2')
    .option('--config <file>', 'trajaudit.config.json for tasks.testPatterns (default: ./trajaudit.config.json in the current directory, when there is one)')
    // No commander default: without --format, the --out name decides (report.ts).
    .addOption(new Option('--format <format>', 'output format (default: md; with --out, html for a .html or .htm name, json for .json)').choices(['md', 'html', 'json']))
    .option('--out <file>', 'write the report here (Markdown: SVG charts beside it); - is stdout')
    .action((paths: string[], opts) =>
      runData(async () => (await import('./commands/report.js')).report({ paths, ...opts }, stderrProgress(io, Boolean(opts.quiet)))),
    );

  program
    .command('check')
    .description('static checks over TypeScript source: the CI guard')
    .argument('[root]', 'source root', '.')
    .option('--config <file>', 'trajaudit.config.json (default: <root>/trajaudit.config.json)')
    .option('--baseline <file>', 'baseline file (default: <root>/trajaudit-baseline.json)')
    .option('--update-baseline', 'rewrite the baseline from the current findings (never adds entries without --allow-additions)')
    .option('--allow-additions', 'with --update-baseline: allow new entries')
    .option('--types', 'use the type checker (resolves receivers and aliases)')
    .option('--rule <id>', 'run only this rule (repeatable)', collect)
    .addOption(formatOption(['text', 'json', 'sarif', 'github', 'md'], 'text'))
    .option('--strict', 'stale baseline entries fail the run')
    .action((root: string, opts) => run(async () => (await import('./commands/check.js')).check({ root, ...opts })));

  program
    .command('leak-check')
    .description('run a command and fail if it left files in the watched directories')
    // Required, but checked by leak-check.ts, whose message says what to watch.
    .option('--watch <dir>', 'directory to watch (required, repeatable)', collect)
    .option('--allow <glob>', 'changes matching this glob (relative to the watched dir) are allowed (repeatable)', collect)
    .addOption(formatOption(['text', 'json'], 'text'))
    .argument('<command...>', 'the command to run, after --')
    .action((command: string[], opts) =>
      run(async () => (await import('./commands/leak-check.js')).leakCheck({ command, ...opts, watch: opts.watch ?? [], allow: opts.allow ?? [] })),
    );

  // commander's own help command prints the whole help, on stderr, for a name it does not know.
  program
    .command('help [command]')
    .description('display help for command')
    .action((name: string | undefined) => {
      if (name === undefined) program.help();
      const found = program.commands.find((c) => c.name() === name);
      if (found) found.help();
      return run(async () => {
        const { didYouMean } = await import('./did-you-mean.js');
        const names = program.commands.map((c) => c.name());
        throw new UsageError(`unknown command ${JSON.stringify(name)}; ${didYouMean(name!, names)}the commands are: ${names.join(', ')}`);
      });
    });

  for (const command of [program, ...program.commands]) command.exitOverride(usageExit(io, command));
  // Where each command reads its config, in its own --help (query, report and check say it at --config).
  for (const command of program.commands.filter((c) => !['query', 'report', 'check', 'help'].includes(c.name()))) {
    command.addHelpText('after', '\nConfig: none read (query and report read trajaudit.config.json from the current directory, check from its root).');
  }

  program.addHelpText('after', `
Config: query and report read trajaudit.config.json from the current directory (or --config F),
check from its root (or --config F); the other commands read no config file.
Environment: SID_CONFIG_DIR, TRAJAUDIT_MEMORY_LIMIT, TRAJAUDIT_READER, TRAJAUDIT_PARALLEL,
TRAJAUDIT_COMMIT_BYTES, TRAJAUDIT_DEBUG (docs/cli.md#environment).`);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof Exit) return error.code;
    diagnostic(io, error instanceof UsageError ? error.message : String(error));
    return exitCodeFor(error);
  }
  return exitCode;
}
