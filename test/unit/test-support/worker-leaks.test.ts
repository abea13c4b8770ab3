/**
 * The test harness keeps no test file alive after it ends: Jest's `--detectLeaks` on a file that holds
 * nothing itself, with the projects' runtime (test/support/jest-code-cache-runtime.js) and setup
 * (test/support/file-cpu-setup.ts). A buffer of V8's code cache kept as V8 made it belonged to the file's
 * context and kept the whole context alive, so a worker's heap grew to 1.1-1.8 GB over a run
 * (docs/reference/tests.md); a `gc` observer left registered did the same.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');

it('Jest finds no leak of a file that holds nothing, with the harness runtime and setup', () => {
  // The setup records only with a folder to write to.
  const cpuDir = mkdtempSync(join(tmpdir(), 'leak-check-'));
  const run = spawnSync(
    process.execPath,
    [
      'node_modules/jest/bin/jest.js',
      '--selectProjects',
      'unit',
      '--detectLeaks',
      '--reporters=default',
      '--runTestsByPath',
      'test/unit/domain/outcomes.test.ts',
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, JEST_FILE_CPU_DIR: cpuDir } },
  );
  rmSync(cpuDir, { recursive: true, force: true });
  expect(run.stderr).not.toContain('leaking memory');
  expect(run.stderr).toMatch(/PASS unit test\/unit\/domain\/outcomes\.test\.ts/);
  expect(run.status).toBe(0);
});
