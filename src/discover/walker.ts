import type { SessionDir, SourceFile, SourceKind } from './discover-inputs.js';

/** A directory entry, with a symbolic link taken as what it points to (homes are often linked). */
export interface WalkEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  /** A symbolic link (isFile and isDirectory say what it points to). */
  link: boolean;
}

/** What an agent format's walk of its layout is given (src/formats/): the one ledger of what was read and skipped. */
export interface DiscoveryWalker {
  /** A directory's entries, by name; what is skipped under it is this load's to replace. */
  list(dir: string): WalkEntry[];
  /** A directory's entries, only to look (deciding what a directory is). */
  peek(dir: string): WalkEntry[];
  /** A file to read, of `kind`; `listed` when it is an entry just listed. */
  file(abs: string, kind: SourceKind, sessionId: string | null, listed?: WalkEntry): void;
  /** An entry not read, listed with why (skipped_inputs). */
  skip(abs: string, reason: string): void;
  /** A path as every output shows it: relative to the root the user named. */
  rel(abs: string): string;
  /** A directory's path so: `.` for the root itself. */
  relDir(dir: string): string;
}

/** One format's part of one discovery (AgentFormat.discovery): claims named paths, walks them. */
export interface FormatDiscovery {
  /**
   * How a named path is this format's: `first` for a layout no other format has (a `.claude`
   * dir), `usual` for its own layouts, `last` for what it takes only when no format claims more
   * (any directory of .jsonl files); null when it is not.
   */
  claim(abs: string, isDirectory: boolean): 'first' | 'usual' | 'last' | null;
  walk(abs: string, isDirectory: boolean): void;
  /** A name this format reads as a file: a directory of that name is said to be one where a file was expected. */
  readsFileNamed?(name: string): boolean;
  /** After every named path is walked (links decided once every real directory is read). */
  afterWalks?(): void;
  /** The files kept of all found (one copy of a session dir, say). */
  keep?(files: SourceFile[]): SourceFile[];
  sessionDirs?(): SessionDir[];
  /** Found no file, yet answered (an empty tasks dir is a clean one). */
  emptyIsAnAnswer?(): boolean;
}
