// The path every data command shares: open the database, ingest the named inputs into it.
// Without --db the data lives in memory for this one command; with --db and no paths, the
// database is used as it is (nothing is loaded from the default home behind the user's back).
import fs from 'node:fs';
import type { Progress } from '../command-result.js';
import { type Database, openDatabase } from '../db/database.js';
import { discoverInputs } from '../discover/discover-inputs.js';
import { CANNOT_READ } from '../discover/unreadable.js';
import { ExitCode, InputError } from '../errors.js';
import { defaultHomes, readingDefaultHomes } from '../formats/default-homes.js';
import { SCHEMA } from '../formats/registry.js';
import { adapters } from './adapters/index.js';
import { rootInputs } from './database-root.js';
import { refuseDbInsideInputs } from './db-inside-inputs.js';
import { unfinishedLoadStart } from '../db/unfinished-load.js';
import { keepYoungGenerationSmall } from './small-young-generation.js';
import { ingest } from './ingest.js';
import { type IngestSummary, OUTSIDE_WINDOW, type TimeWindow } from './plan-load.js';

export interface LoadInputsOptions {
  paths: string[];
  db?: string;
  window?: TimeWindow;
  /** `load` always ingests (the default home when no path is named), even with --db. */
  alwaysIngest?: boolean;
  /** Run on the open database before any input is read: checks of values only DuckDB can judge. */
  beforeIngest?: (db: Database) => Promise<void>;
  /** Where the unreadable lines are listed, for the notice that counts them (`sources` lists them itself). */
  problemsHint?: string;
  /** --quiet: no notice of the lines this load could not read (warnings that change an answer stay). */
  quiet?: boolean;
  /** The notices also over a --db read as it is (`sources --strict`, which fails on those lines). */
  alwaysNotices?: boolean;
}

export interface LoadedInputs {
  db: Database;
  summary: IngestSummary | null;
  warnings: string[];
  /** Files and directories the database lists as unreadable: answers over it leave them out (exit 2). */
  unreadable: number;
}

/** A command's exit code when its answer is complete: 2 when inputs it needed could not be read. */
export function answerExitCode(loaded: Pick<LoadedInputs, 'unreadable'>): ExitCode {
  return loaded.unreadable > 0 ? ExitCode.input : ExitCode.ok;
}

/** How many lines could not be read, and how many name a key twice, with where they are listed. */
async function lineNotices(db: Database, problemsHint = 'they are listed by `trajaudit sources`'): Promise<string[]> {
  const counts = (await db.all(`SELECT count(*) FILTER (kind <> 'duplicate-key') AS lines, count(DISTINCT file_id) FILTER (kind <> 'duplicate-key') AS files,
    count(*) FILTER (kind = 'duplicate-key') AS twice FROM input_problems`)).rows[0] as { lines: number; files: number; twice: number };
  const notices: string[] = [];
  if (counts.lines > 0) notices.push(`${counts.lines} line${counts.lines === 1 ? '' : 's'} in ${counts.files} file${counts.files === 1 ? '' : 's'} could not be read; ${problemsHint}`);
  if (counts.twice > 0) notices.push(`${counts.twice} line${counts.twice === 1 ? ' names' : 's name'} a key twice: the first value is stored, the later ones nowhere; \`trajaudit sources --section problems\` lists ${counts.twice === 1 ? 'it' : 'them'} (kind duplicate-key)`);
  return notices;
}

/** The paths named, else every agent's default home that exists (`said` gets the line that names them). */
function namedPaths(options: LoadInputsOptions, said: string[]): string[] {
  if (options.paths.length > 0) return options.paths;
  const homes = defaultHomes();
  said.push(readingDefaultHomes(homes));
  return homes.map((h) => h.home);
}

export async function loadInputs(options: LoadInputsOptions, progress: Progress): Promise<LoadedInputs> {
  const useDbAsIs = options.db !== undefined && options.paths.length === 0 && !options.alwaysIngest;
  const said: string[] = [];
  const named = useDbAsIs ? [] : namedPaths(options, said);
  if (options.db !== undefined) refuseDbInsideInputs(options.db, named);
  // A load into a file holds its memory down (under 500 MB at 5 GiB of input, docs/benchmarks.md), from the start;
  // the command's queries get V8's own sizing back.
  const restoreYoungGeneration = options.db !== undefined && !useDbAsIs ? keepYoungGenerationSmall() : () => undefined;
  try {
    const loaded = await loadInto(options, named, useDbAsIs, progress);
    loaded.warnings.unshift(...said);
    return loaded;
  } finally {
    restoreYoungGeneration();
  }
}

async function loadInto(options: LoadInputsOptions, named: string[], useDbAsIs: boolean, progress: Progress): Promise<LoadedInputs> {
  const inputs = useDbAsIs ? null : discoverInputs(named);
  const wideRows = inputs?.files.some((f) => adapters[f.kind].wideRows === true) ?? false;
  const db = await openDatabase(SCHEMA, options.db, { readOnly: useDbAsIs, wideRows });
  try {
    await options.beforeIngest?.(db);
    const summary = inputs ? await ingest(db, await rootInputs(db, inputs), options.window ?? {}, progress) : null;
    // Notices of the lines that could not be read come with the load that read them, once: a
    // command over a --db as it is does not repeat them (sources lists them).
    const warnings = options.alwaysNotices || (!useDbAsIs && !options.quiet) ? await lineNotices(db, options.problemsHint) : [];
    // Said on every command over such a --db, windowed or not: which window left a file unread is
    // not kept, so no command can tell that its own window needs none of them.
    const unread = options.db === undefined ? 0 : ((await db.all(`SELECT count(*) AS n FROM skipped_inputs WHERE reason = $r`, { r: OUTSIDE_WINDOW })).rows[0].n as number);
    if (unread > 0) {
      warnings.push(`${unread} file${unread === 1 ? ' was' : 's were'} left unread in ${options.db} by a --since/--until window, so answers that reach outside that window miss ${unread === 1 ? 'its' : 'their'} rows; \`trajaudit load\` of the same paths into it reads ${unread === 1 ? 'it' : 'them'} (\`trajaudit sources --section skipped\` lists ${unread === 1 ? 'it' : 'them'})`);
    }
    const unfinished = options.db === undefined ? null : await unfinishedLoadStart(db);
    if (unfinished !== null) {
      warnings.push(`the last load into ${options.db} (started ${unfinished}) did not finish: it was stopped before it had read every file, so answers miss the files it had not committed; run trajaudit load with the same paths and --db ${options.db} to complete it`);
    }
    const unreadable = (await db.all(`SELECT path, reason FROM skipped_inputs WHERE starts_with(reason, $r) ORDER BY path`, { r: CANNOT_READ })).rows;
    if (unreadable.length > 0) {
      const n = unreadable.length;
      const named = unreadable.slice(0, 3).map((r) => `${r.path}: ${String(r.reason).slice(CANNOT_READ.length).split(';')[0]}`).join(', ');
      warnings.push(`${n} input${n === 1 ? '' : 's'} could not be read, so answers leave ${n === 1 ? 'it' : 'them'} out: ${named}${n > 3 ? ', …' : ''}; fix the cause and run again (\`trajaudit sources --section skipped\` lists ${n === 1 ? 'it' : 'them'} with what to do)`);
    }
    const gone = summary?.gone ?? [];
    if (gone.length > 0) {
      warnings.push(`${gone.length} file${gone.length === 1 ? '' : 's'} in ${options.db} no longer exist${gone.length === 1 ? 's' : ''} on disk (${gone.slice(0, 3).join(', ')}${gone.length > 3 ? ', …' : ''}); ${gone.length === 1 ? 'its' : 'their'} rows are kept: to drop them, load into a new --db`);
    }
    return { db, summary, warnings, unreadable: unreadable.length };
  } catch (error) {
    db.close();
    throw error;
  }
}
