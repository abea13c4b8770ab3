/**
 * Benchmark of the embedded local cloud's walking skeleton: start-up time, memory of the whole stack
 * (Node + Java), and the latency from POST /emails to `delivered`. Prints figures; asserts nothing.
 *
 *   npm run bench:local [-- --sends 50]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { npmStartNodeArgs, spawnStack } from '#test/integration/harness/spawn-stack';
import { readStackFile } from '#localstack/cloud/stack/stack-file';
import { descendants, rssByProcess, rssMb } from './lib/process-tree';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const { values } = parseArgs({ options: { sends: { type: 'string', default: '30' } } });
  const sends = Number(values.sends);
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-bench-'));
  const started = Date.now();
  // As `npm start` runs: its Node flags, the template's task periods (the test harness's stacks run the reconciler every 10 s).
  const stack = await spawnStack({ dataDir, inMemory: false, nodeArgs: npmStartNodeArgs(), env: { LOCAL_TASK_PERIOD_MS: '' } });
  const startup = Date.now() - started;
  try {
    const info = readStackFile(dataDir)!;
    Object.assign(process.env, info.env);
    const { buildServices } = await import('#shared/services');
    const { createAccount } = await import('#shared/usecases/access/accounts');
    const { loadConfig } = await import('#shared/config/config');
    const { secret, account } = await createAccount(buildServices(loadConfig(process.env)), {
      email: 'bench@example.com',
      plan: 'free',
      paymentMethod: false,
      tenants: false,
    });
    const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
    const idleRss = rssMb(descendants(stack.child.pid!));
    const idleByProcess = rssByProcess(descendants(stack.child.pid!));

    const accepted: number[] = [];
    const delivered: number[] = [];
    for (let i = 0; i < sends; i++) {
      const t0 = performance.now();
      const response = await fetch(`${stack.apiUrl}/emails`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ from: 'bench@sandbox.mailservice.dev', to: account.email, subject: `bench ${i}`, text: 'hello' }),
      });
      const { id } = (await response.json()) as { id: string };
      accepted.push(performance.now() - t0);
      for (;;) {
        const email = (await (await fetch(`${stack.apiUrl}/emails/${id}`, { headers })).json()) as { email: { status: string } };
        if (email.email.status === 'delivered') break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      delivered.push(performance.now() - t0);
    }
    const busyRss = rssMb(descendants(stack.child.pid!));
    accepted.sort((a, b) => a - b);
    delivered.sort((a, b) => a - b);
    const fmt = (n: number) => n.toFixed(1);
    console.log(`start-up (spawn to ready line, on-disk data): ${startup} ms`);
    console.log(`memory of the whole stack (Node + DynamoDB Local), RSS: idle ${fmt(idleRss)} MB, after ${sends} sends ${fmt(busyRss)} MB`);
    console.log(`  idle, by process: ${idleByProcess.map((p) => `${p.name} ${fmt(p.mb)} MB`).join(', ')}`);
    const floor = await bareNodeFloor(npmStartNodeArgs());
    console.log(`floor, same run: a bare node with npm start's flags printed its line in ${floor.ms} ms and held ${fmt(floor.mb)} MB`);
    console.log(
      `POST /emails -> 200 (sequential, n=${sends}): p50 ${fmt(percentile(accepted, 50))} ms, p95 ${fmt(percentile(accepted, 95))} ms`,
    );
    console.log(
      `POST /emails -> delivered (polled every 5 ms): p50 ${fmt(percentile(delivered, 50))} ms, p95 ${fmt(percentile(delivered, 95))} ms, max ${fmt(delivered[delivered.length - 1]!)} ms`,
    );
  } finally {
    await stack.stop('SIGINT');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The floor of the start-up and memory figures: a node process with the same flags that only prints a line and waits. */
async function bareNodeFloor(nodeArgs: string[]): Promise<{ ms: number; mb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, '-e', "process.stdout.write('ready'); setInterval(() => {}, 1000)"]);
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const ms = Math.round(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const mb = rssMb([child.pid!]);
  child.kill();
  return { ms, mb };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
