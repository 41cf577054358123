import type { SourceKind } from './discover-inputs.js';

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
}
