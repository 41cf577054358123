import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError } from '../../errors.js';

/** sid-code's writer resolves its home from SID_CONFIG_DIR, else ~/.sid-code (docs/formats.md#the-home-directory). */
export function defaultHome(): string {
  const configured = process.env.SID_CONFIG_DIR;
  if (configured && configured.trim() !== '') {
    // An env file or a systemd unit does not expand `~`; a directory named `~` is not what was meant.
    if (/^~($|\/)/.test(configured)) {
      throw new InputError(`no input path given and SID_CONFIG_DIR=${configured} starts with a \`~\` that nothing expanded; write $HOME (or the full path) instead, or pass a path`);
    }
    // A missing SID_CONFIG_DIR is said here, naming the variable: it is set and it is the cause,
    // where the caller's line about a missing default home advises setting it.
    const home = path.resolve(configured);
    if (!fs.existsSync(home)) {
      const resolved = home === configured ? '' : ` (${home})`;
      throw new InputError(`no input path given and SID_CONFIG_DIR=${configured}${resolved} does not exist; pass a path (e.g. a sid-code home), or set SID_CONFIG_DIR to one that exists`);
    }
    return home;
  }
  return path.join(userHome(), '.sid-code');
}

// os.homedir() throws when HOME is unset and the uid has no passwd entry (`docker run --user 12345`),
// and returns '' for `HOME=`, which would make the default a path relative to the current directory.
function userHome(): string {
  let home: string;
  try {
    home = os.homedir();
  } catch {
    throw noHome(`HOME is unset and uid ${process.getuid?.()} has no passwd entry`);
  }
  if (home === '') throw noHome('HOME is set to an empty string');
  return home;
}

function noHome(why: string): InputError {
  return new InputError(`no input path given and no home directory to find ~/.sid-code in (${why}); pass a path (e.g. a sid-code home) or set SID_CONFIG_DIR`);
}
