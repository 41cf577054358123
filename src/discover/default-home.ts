import os from 'node:os';
import path from 'node:path';

/** sid-code's writer resolves its home from SID_CONFIG_DIR, else ~/.sid-code (formats doc §1). */
export function defaultHome(): string {
  const configured = process.env.SID_CONFIG_DIR;
  return configured && configured.trim() !== '' ? path.resolve(configured) : path.join(os.homedir(), '.sid-code');
}
