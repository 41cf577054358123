import { describe, expect, it } from 'vitest';
import { exitCodeFor, InputError, noSpaceError } from '../../src/errors.js';

// Checked by hand on a full 3 MB tmpfs (a first load, a commit, the final checkpoint, a new --db
// whose first write fails): each message below is one DuckDB or Node gave there.
describe('a full disk is the machine, not a bug: exit 2 with what to do', () => {
  it.each([
    ['DuckDB writing the log at commit', new Error('TransactionContext Error: Failed to commit: Could not write file "/m/b.db.wal": No space left on device')],
    ['DuckDB creating a new file', new Error('IO Error: Could not write file "/m/c.db": No space left on device')],
    ['Node writing rows to the temp dir', Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })],
    ['a quota', Object.assign(new Error('EDQUOT: disk quota exceeded, write'), { code: 'EDQUOT' })],
  ])('%s', (_, error) => {
    const mapped = noSpaceError(error);
    expect(mapped).toBeInstanceOf(InputError);
    expect(exitCodeFor(mapped)).toBe(2);
    expect(mapped!.message).toMatch(/^no space left on device \(.+\); free space on that disk, or put the --db file, --out or the temp directory \(TMPDIR, now .+\) elsewhere, and run again$/);
  });

  it('says a load is committed when only the checkpoint after it failed', () => {
    const error = new Error('FATAL Error: Failed to create checkpoint because of error: Could not write file "/m/a.db": No space left on device');
    expect(noSpaceError(error, ': this load is committed')!.message).toContain('No space left on device): this load is committed; free space');
  });

  it('leaves other errors, and a message already said, as they are', () => {
    expect(noSpaceError(new Error('Binder Error: column x not found'))).toBeNull();
    expect(noSpaceError(new InputError('no space left on device (…); free space'))).toBeNull();
  });
});
