/**
 * The test harness keeps no test file alive after it ends: Jest's `--detectLeaks` on a file that holds
 * nothing itself, with the projects' runtime (test/support/jest-code-cache-runtime.js) and setup
 * (test/support/file-cpu-setup.ts). A buffer of V8's code cache kept as V8 made it belonged to the file's
 * context and kept the whole context alive, so a worker's heap grew to 1.1-1.8 GB over a run
 * (docs/reference/tests.md); a `gc` observer left registered did the same. And the runtime's code cache on disk:
 * what one run compiled, the next reads instead of compiling, and an entry V8 refuses is removed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');

/** Runs one small unit file through Jest with the harness runtime and setup, the code cache in `cacheDir`. */
function runJest(cacheDir: string, extra: string[] = []) {
  // The setup records only with a folder to write to.
  const cpuDir = mkdtempSync(join(tmpdir(), 'leak-check-'));
  const run = spawnSync(
    process.execPath,
    [
      'node_modules/jest/bin/jest.js',
      '--selectProjects',
      'unit',
      ...extra,
      '--reporters=default',
      '--runTestsByPath',
      'test/unit/domain/outcomes.test.ts',
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, JEST_FILE_CPU_DIR: cpuDir, JEST_CODE_CACHE_DIR: cacheDir } },
  );
  rmSync(cpuDir, { recursive: true, force: true });
  expect(run.stderr).toMatch(/PASS unit test\/unit\/domain\/outcomes\.test\.ts/);
  expect(run.status).toBe(0);
  return run;
}

/** Each entry of the cache (one folder per V8): its path and modification time. */
function entries(cacheDir: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const folder of readdirSync(cacheDir)) {
    for (const name of readdirSync(join(cacheDir, folder))) {
      const path = join(cacheDir, folder, name);
      found.set(path, statSync(path).mtimeMs);
    }
  }
  return found;
}

// One cache folder for the file's two tests, in order: the first run fills it, the second reads it.
const cacheDir = mkdtempSync(join(tmpdir(), 'code-cache-check-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

it('Jest finds no leak of a file that holds nothing, with the harness runtime and setup', () => {
  expect(runJest(cacheDir, ['--detectLeaks']).stderr).not.toContain('leaking memory');
});

it('the next run reads the code cache the last one wrote instead of compiling, and drops an entry V8 refuses', () => {
  const written = entries(cacheDir);
  expect(written.size).toBeGreaterThan(10);
  const [refused] = [...written.keys()];
  writeFileSync(refused!, 'not a code cache');
  runJest(cacheDir);
  const after = entries(cacheDir);
  // Every other entry read, none written again (a module compiled afresh is written whole and renamed in).
  for (const [path, mtime] of written) if (path !== refused) expect({ path, mtime: after.get(path) }).toEqual({ path, mtime });
  expect(after.has(refused!)).toBe(false);
});
