/**
 * `npm start` refuses LOCAL_STREAM_SHARDS out of range before anything starts (localstack/start.ts; the
 * setting itself: docs/local-cloud/streams.md, "Many shards").
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

test('npm start exits 1 naming LOCAL_STREAM_SHARDS when it is out of range, having started nothing', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'stream-shards-start-'));
  try {
    const run = spawnSync(process.execPath, [join(ROOT, 'localstack', 'launch.cjs')], {
      cwd: ROOT,
      env: { ...process.env, LOCAL_STREAM_SHARDS: '0', DATA_IN_MEMORY: '1', DATA_DIR: dataDir, PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('LOCAL_STREAM_SHARDS must be a whole number from 1 to 10000, got "0"');
    // Before anything starts: no emulator listened, no stack became ready.
    expect(run.stderr).not.toMatch(/listening on/);
    expect(run.stdout).not.toContain('Ready in');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 90_000);
