/**
 * Temporary folders a test file makes (under the OS's temporary folder), removed after the file's tests:
 * importing this module registers the removal (Jest evaluates it once per test file).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new folder `<tmp>/<prefix>XXXXXX`, removed after this file's tests. */
export function temporaryDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
