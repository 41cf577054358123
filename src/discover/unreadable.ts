// An input the file system refuses to read (permissions, a failing disk): listed in the ledger as
// skipped with this reason, and everything else is read. A command that leaves such a file out
// says so and exits 2: its answer is over incomplete input.

/** The start of skipped_inputs.reason of a file or directory that could not be read. */
export const CANNOT_READ = 'cannot be read: ';

const CAUSES: Record<string, string> = {
  EACCES: 'permission denied; fix its permissions',
  EPERM: 'operation not permitted (permissions, or an immutable or locked file); fix its permissions',
  EIO: 'input/output error (EIO); check the disk or network file system it is on',
  ENXIO: 'no such device (ENXIO); check the disk or network file system it is on',
  ESTALE: 'stale network file handle (ESTALE); remount the file system it is on',
  EINVAL: 'the file system refuses to read it (EINVAL)',
  ELOOP: 'a symbolic link that leads round in a loop (ELOOP)',
};

/** The ledger's reason for an error opening or reading an input; null for one that is not the input's (a file gone: ENOENT). */
export function unreadableReason(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === undefined || code === 'ENOENT' || code === 'ENOTDIR' || code === 'EMFILE' || code === 'ENFILE' || code === 'ENOMEM') return null;
  return `${CANNOT_READ}${CAUSES[code] ?? code}`;
}
