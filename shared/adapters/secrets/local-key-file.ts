/** The embedded cloud's secrets key: 32 random bytes in a file only its owner can read. */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const LOCAL_KEY_BYTES = 32;

/**
 * Returns the key in `keyFile`, creating the file first if it is missing (random, mode 0600, parent
 * directories 0700). Creation is exclusive, so two processes starting together end up with the same
 * key. Throws on a file that is not exactly 32 bytes, rather than sealing with a wrong key.
 * Synchronous: called once at start-up (the local cloud) or on a box's first use.
 */
export function ensureLocalKeyFile(keyFile: string): Buffer {
  try {
    fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
    fs.writeFileSync(keyFile, randomBytes(LOCAL_KEY_BYTES), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readLocalKeyFile(keyFile);
}

export function readLocalKeyFile(keyFile: string): Buffer {
  const key = fs.readFileSync(keyFile);
  if (key.length !== LOCAL_KEY_BYTES) {
    throw new Error(
      `Secrets key file ${keyFile} must hold exactly ${LOCAL_KEY_BYTES} bytes (found ${key.length}); restore it or, if no secrets were sealed with it, delete it to create a new one`,
    );
  }
  return key;
}
