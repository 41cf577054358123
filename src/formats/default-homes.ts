import fs from 'node:fs';
import { InputError } from '../errors.js';
import { AGENT_FORMATS } from './registry.js';

export interface DefaultHome {
  format: string;
  home: string;
}

/** Every agent's default home that exists, read when no path is named; none is an input error. */
export function defaultHomes(): DefaultHome[] {
  const homes = AGENT_FORMATS.map((f) => ({ format: f.name, home: f.defaultHome() }));
  const found = homes.filter((h): h is DefaultHome => h.home !== null && fs.existsSync(h.home));
  if (found.length === 0) {
    const looked = homes.flatMap((h) => (h.home === null ? [] : [h.home])).join(', ');
    throw new InputError(`no input path given and no default home exists (${looked}); pass a path (e.g. a sid-code home or ~/.claude) or set SID_CONFIG_DIR or CLAUDE_CONFIG_DIR`);
  }
  return found;
}

/** The line that says which default homes a command reads. */
export const readingDefaultHomes = (homes: DefaultHome[]) => `no input path given: reading ${homes.map((h) => `${h.home} (${h.format})`).join(' and ')}`;
