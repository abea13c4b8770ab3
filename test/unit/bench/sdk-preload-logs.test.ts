/**
 * CloudWatch Logs in the cost model (bench/lib/sdk-preload.cjs, BENCH_COST=1): the product's log lines
 * (shared/lib/log.ts, one JSON object a line) are counted in bytes in every thread the preload runs in; the
 * local cloud's own lines are not.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const PRELOAD = resolve(__dirname, '../../../bench/lib/sdk-preload.cjs');

test("counts the bytes of the product's JSON log lines, not the local cloud's", () => {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-logs-'));
  try {
    const product = JSON.stringify({ level: 'warn', message: 'held', time: '2026-11-27T00:00:00.000Z' });
    const script = [
      `require(${JSON.stringify(require.resolve('@aws-sdk/client-sqs'))});`,
      `console.log(${JSON.stringify(product)});`,
      `process.stderr.write(${JSON.stringify(`${product}\n`)});`,
      "console.error('[local-cloud] not ours');",
    ].join('\n');
    execFileSync(process.execPath, ['--require', PRELOAD, '-e', script], {
      env: { ...process.env, BENCH_SDK_DIR: dir, BENCH_COST: '1' },
      stdio: 'pipe',
    });
    const files = readdirSync(dir).filter((name) => /^sdk-\d+-\d+\.json$/.test(name));
    const units = files.map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')).units as Record<string, number>);
    const bytes = units.reduce((sum, u) => sum + (u['product\tCloudWatch Logs\tbytes'] ?? 0), 0);
    expect(bytes).toBe(2 * Buffer.byteLength(`${product}\n`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
