// JSONL files in commit groups of about 256 MiB (TRAJAUDIT_COMMIT_BYTES), one transaction each, taken from one queue
// by every connection of the load: a load killed mid-group loses that group only, and nothing is
// ever half-written. Each file is read the direct way when it can be, else staged (refused.ts).
import type { Database } from '../db/database.js';
import { environment } from '../environment.js';
import { OutOfMemoryError, readFailedError } from '../errors.js';
import type { Adapter } from './adapters/adapter.js';
import { deriveStored } from './derive-stored.js';
import { clearRows, type ReadFile, writeLedgers } from './ledger-rows.js';
import type { LineLedger } from './line-ledger.js';
import type { LoadTally } from './load-tally.js';
import { loadAlone, readStaged } from './read-staged.js';
import { Refused } from './refused.js';
import { type LineScan, scanLines } from './scan-lines.js';
import type { Work } from './work.js';

// A commit costs tens of ms on a file database, so one per file would dominate a home of many
// small sessions; TRAJAUDIT_COMMIT_BYTES trades load speed for less work redone after a kill.
const DEFAULT_GROUP_BYTES = 256 * 1024 * 1024;
// Each staged file's scratch table keeps a block of DuckDB's pool until the commit: a group holds
// few of them, so that many grown files do not fill the pool.
const STAGED_PER_GROUP = 32;
// Files per group, at most: a home of many small sessions is shared out between the connections.
const FILES_PER_GROUP = 256;
// Whole files up to this size are read a batch at a time, one statement per group and kind: a
// statement costs ~10 ms however small its file (a Claude Code transcript's insert).
const BATCH_FILE_BYTES = 1024 * 1024;

export class GroupLoader {
  private readonly queue: Work[];
  /** Files the direct path refused, and files whose batch failed: known for the rest of the load. */
  private readonly refused = new Set<Work>();
  private readonly unbatched = new Set<Work>();
  private readonly groupBytes: number;
  /** TRAJAUDIT_READER=staged reads every JSONL file line by line first, as files the direct path refuses are. */
  private readonly directReader: boolean;

  constructor(jsonl: Work[], private readonly ids: Map<Work, number>, private readonly tally: LoadTally) {
    this.queue = [...jsonl];
    const env = environment();
    this.groupBytes = env.commitBytes ?? DEFAULT_GROUP_BYTES;
    this.directReader = env.reader === 'direct';
  }

  /** Another connection failed: nothing more is taken. */
  stop(): void {
    this.queue.length = 0;
  }

  /** Loads groups on `conn` until the queue is empty. */
  async run(conn: Database): Promise<void> {
    for (let group = this.take(); group.length > 0; group = this.take()) await this.loadGroup(conn, group);
  }

  private take(): Work[] {
    const group: Work[] = [];
    for (let bytes = 0, staged = 0; this.queue.length > 0 && (group.length === 0 || (bytes < this.groupBytes && staged < STAGED_PER_GROUP && group.length < FILES_PER_GROUP)); ) {
      const w = this.queue.shift()!;
      group.push(w);
      bytes += w.stat.size;
      if (w.plan.action === 'append') staged += 1;
    }
    return group;
  }

  /**
   * One group in one transaction: its small whole files in batches, then the others one by one.
   * A refusal after reading costs the transaction: the group up to the refused file is read
   * again with that file staged, and the files after it go back to the queue (a run of files the
   * direct path refuses costs each one read more, not the whole group again for each). A file the
   * staged reader takes only outside a transaction is read alone after the group.
   */
  private async loadGroup(conn: Database, taken: Work[]): Promise<void> {
    let group = taken;
    const alone = new Set<Work>();
    for (;;) {
      const members = group.filter((w) => !alone.has(w));
      const pending = { files: 0, bytes: 0 };
      let current: Work | undefined;
      try {
        const loaded = await conn.transaction(async () => {
          const read: ReadFile[] = [];
          const readOne = (w: Work, ledger: LineLedger) => {
            read.push({ w, fileId: this.ids.get(w)!, ledger });
            pending.files += 1;
            pending.bytes += ledger.bytes;
            this.tally.inFlight({ files: 1, bytes: ledger.bytes });
            this.tally.tick();
          };
          const batched = await this.loadBatches(conn, members);
          for (const [w, ledger] of batched) readOne(w, ledger);
          const rest = members.filter((w) => !batched.has(w));
          let scan = this.scanEarly(rest[0]);
          for (const [k, w] of rest.entries()) {
            current = w;
            const scanning = scan;
            scan = this.scanEarly(rest[k + 1]);
            readOne(w, await this.loadOne(conn, w, scanning));
          }
          await deriveStored(conn, read);
          await writeLedgers(conn, read);
          return read;
        });
        for (const { w, ledger } of loaded) this.tally.record(w, ledger);
        break;
      } catch (error) {
        if (error instanceof Refused && error.when === 'in-transaction' && current) alone.add(current);
        else if (error instanceof OutOfMemoryError && current) throw error.whileReading(current.file.relPath);
        else if (current && readFailedError(error, current.file.relPath)) throw readFailedError(error, current.file.relPath)!;
        else if (!(error instanceof Refused && error.when === 'after-reading')) throw error;
        else if (current) {
          const k = group.indexOf(current);
          this.queue.unshift(...group.slice(k + 1));
          group = group.slice(0, k + 1);
        }
      } finally {
        this.tally.inFlight({ files: -pending.files, bytes: -pending.bytes });
      }
    }
    for (const w of alone) await loadAlone(conn, w, this.ids.get(w)!, this.tally);
    this.tally.tick();
  }

  /** Whether a whole file goes the direct way (read_json straight into its table). */
  private direct(w: Work): boolean {
    return this.directReader && w.adapter.loadDirect !== undefined && w.plan.action !== 'append' && !this.refused.has(w);
  }

  /** Starts a file's line scan early: Node scans while DuckDB inserts the file before it. */
  private scanEarly(w: Work | undefined): Promise<LineScan | Refused> | undefined {
    if (!w || !this.direct(w)) return undefined;
    const scan = scanLines(w.file.absPath, { keys: w.adapter.envelopeKeys });
    scan.catch(() => undefined); // a failed scan is reported when the file's turn comes
    return scan;
  }

  /** One file inside the group's transaction: direct when it can be, else staged; a refusal that costs the transaction is thrown. */
  private async loadOne(conn: Database, w: Work, scan?: Promise<LineScan | Refused>): Promise<LineLedger> {
    const fileId = this.ids.get(w)!;
    if (this.direct(w)) {
      await clearRows(conn, [w], () => 0);
      const [answer] = await w.adapter.loadDirect!(conn, [{ fileId, file: w.file, scan }]);
      if (!(answer instanceof Refused)) return answer;
      this.refused.add(w);
      this.tally.debug(`direct read refused: ${answer.message}`);
      if (answer.when === 'after-reading') throw answer;
    }
    const read = await readStaged(conn, w, fileId, true);
    if (read instanceof Refused) throw read;
    await read.write();
    return read.ledger;
  }

  /**
   * The group's small whole files, one statement per kind (a kind with one such file reads it the
   * usual way): their ledgers. A file its line scan refused is staged; a refusal after reading
   * costs the transaction, and the group is read again with those files one by one.
   */
  private async loadBatches(conn: Database, members: Work[]): Promise<Map<Work, LineLedger>> {
    const byAdapter = new Map<Adapter, Work[]>();
    for (const w of members) {
      if (!this.direct(w) || this.unbatched.has(w) || w.stat.size > BATCH_FILE_BYTES) continue;
      byAdapter.set(w.adapter, [...(byAdapter.get(w.adapter) ?? []), w]);
    }
    const read = new Map<Work, LineLedger>();
    for (const [adapter, files] of byAdapter) {
      if (files.length < 2) continue;
      await clearRows(conn, files, () => 0);
      const answers = await adapter.loadDirect!(conn, files.map((w) => ({ fileId: this.ids.get(w)!, file: w.file })));
      const lost = answers.find((a): a is Refused => a instanceof Refused && a.when === 'after-reading');
      if (lost) {
        for (const w of files) this.unbatched.add(w);
        this.tally.debug(`batched read refused: ${lost.message}`);
        throw lost;
      }
      files.forEach((w, k) => {
        const answer = answers[k];
        if (answer instanceof Refused) {
          this.refused.add(w);
          this.tally.debug(`direct read refused: ${answer.message}`);
        } else read.set(w, answer);
      });
    }
    return read;
  }
}
