// A reader declining a file, as a value: the readers return it (scan-lines.ts, load-jsonl-direct.ts,
// stage-jsonl.ts through its adapter), and load-groups.ts alone decides what reads the file next.
// A JSONL file's way through the readers, inside a commit group's transaction:
//
//   direct ─ Refused('before-reading') ─▶ staged, in the same transaction (nothing was read)
//   direct ─ Refused('after-reading') ──▶ the transaction rolled back; the group read again up to
//                                         the file, staged, and the files after it requeued (a
//                                         batch of small files: each of them read on its own)
//   staged ─ Refused('in-transaction') ─▶ the transaction rolled back; the file read alone, staged
//                                         outside any transaction, then written in one of its own
//   alone  ─ no refusal: the staged reader outside a transaction falls back to Node's own lines
//
// A Refused is thrown only to roll a transaction back, and caught where the group is retried.
export class Refused extends Error {
  constructor(readonly when: 'before-reading' | 'after-reading' | 'in-transaction', reason: string) {
    super(reason);
  }
}

/** Whether a reader's answer is a refusal (type guard for `T | Refused`). */
export const isRefused = (value: unknown): value is Refused => value instanceof Refused;
