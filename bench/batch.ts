/**
 * `npm run bench:batch`: `POST /emails/batch` of 100 emails, as users of Resend's and Postmark's batch
 * endpoints send them: the batch's latency, and the CPU it costs per email, on the request path (the stack's
 * processes while the batches are answered) and to delivered (until the pipeline drained). Goal (issue 49):
 * at most 2 ms of CPU per email on the request path. Prints figures, asserts nothing.
 *
 *   npm run bench:batch -- [--batches 20] [--items 100] [--warmup 3] [--count-calls] [--cpu-prof] [--cost]
 *
 * Method: an in-memory local cloud (bench/lib/bench-stack.ts: the product's settings as on AWS), a
 * `dedicated`-plan account with a verified domain; `--warmup` batches, the pipeline drained; then `--batches`
 * batches one after the other (each to `success+<n>@simulator.amazonses.com`, a short text), the stack's CPU
 * (Node and DynamoDB Local, /proc) read before and after the answers and again once the pipeline drained.
 * --count-calls, --cpu-prof, --cost as in bench:smtp (bench/lib/stack-observer.ts), over the measured batches
 * until drained, per email; with --cpu-prof also the request path's own CPU: the product's share of the API
 * thread while the batches were answered (its /proc CPU split by its profile's samples), the goal's figure.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dedicatedSender } from './lib/fixtures';
import { loadProduct as load, withInMemoryStack } from './lib/bench-stack';
import { cpuSecondsByRole, descendants } from './lib/process-tree';
import { observeFlags, StackObserver } from './lib/stack-observer';
import { workerQueues } from './lib/smtp-load';
import { ms, summarise } from './lib/stats';

/** The request path's CPU per email this bench's goal names (issue 49 item 8). */
export const BATCH_CPU_GOAL_MS = 2;

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => !['--count-calls', '--cpu-prof', '--cost'].includes(arg)),
  options: {
    batches: { type: 'string', default: '20' },
    items: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '3' },
  },
});
const BATCHES = Number(values.batches);
const ITEMS = Number(values.items);
const WARMUP = Number(values.warmup);
const OBSERVE = observeFlags(process.argv.slice(2));
const log = (message: string) => console.error(`[bench:batch] ${message}`);

const cpuMs = (pids: number[]) => {
  const roles = cpuSecondsByRole(pids);
  return { node: roles['stack Node'] * 1000, java: roles['DynamoDB Local (Java)'] * 1000 };
};

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-batch-'));
  const observer = new StackObserver(OBSERVE, scratch);
  const observing = OBSERVE.countCalls || OBSERVE.cpuProf || OBSERVE.cost;
  const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  await withInMemoryStack('batch', { env: { LOCAL_TASK_PERIOD_MS: '60000', ...observer.stackEnv() } }, async ({ stack, info }) => {
    const { buildServices } = load('shared/services');
    const { loadConfig } = load('shared/config/config');
    const { createAccount } = load('shared/usecases/access/accounts');
    const services = buildServices(loadConfig(process.env));
    const { client, headers, domain } = await dedicatedSender(createAccount, services, stack.apiUrl, 'batch', 2);
    const { control, pipeline } = workerQueues(info.env);
    let next = 0;
    const batch = async (): Promise<{ ms: number; ok: boolean }> => {
      const emails = Array.from({ length: ITEMS }, () => {
        const n = next++;
        return { from: `bench@${domain}`, to: `success+${n}@simulator.amazonses.com`, subject: `batch ${n}`, text: `batch ${n}` };
      });
      const t0 = performance.now();
      const response = await client.request('POST', '/emails/batch', headers, JSON.stringify({ emails }));
      const ok = response.status === 200 && (JSON.parse(response.text).data ?? []).length === ITEMS;
      if (!ok) log(`batch answered ${response.status}: ${response.text.slice(0, 200)}`);
      return { ms: performance.now() - t0, ok };
    };

    log(`warm-up: ${WARMUP} batches of ${ITEMS}`);
    for (let i = 0; i < WARMUP; i++) await batch();
    await pipeline.drain();

    const pids = descendants(stack.child.pid!);
    const mark = observing ? await observer.mark(stack.apiUrl) : undefined;
    const before = cpuMs(pids);
    const started = performance.now();
    log(`${BATCHES} batches of ${ITEMS}, one after the other`);
    const latencies: number[] = [];
    let failed = 0;
    for (let i = 0; i < BATCHES; i++) {
      const result = await batch();
      latencies.push(result.ms);
      if (!result.ok) failed++;
    }
    const answeredMs = performance.now() - started;
    const answered = cpuMs(pids);
    const requestsAnswered = observer.answered();
    await pipeline.drain();
    const drained = cpuMs(pids);
    const emails = BATCHES * ITEMS;
    const observed = mark
      ? await observer.since(
          mark,
          stack.apiUrl,
          `${BATCHES} batches of ${ITEMS}`,
          { messages: emails, apiRequests: BATCHES },
          { answered: requestsAnswered, pid: stack.child.pid! },
        )
      : undefined;
    control.destroy();

    const s = summarise(latencies);
    const requestCpu = (answered.node - before.node + (answered.java - before.java)) / emails;
    console.log(
      `\nbench:batch: ${BATCHES} batches of ${ITEMS} emails (short text) one after the other. Load average before ${loadBefore}.\n`,
    );
    console.log(
      `POST /emails/batch latency: p50 ${ms(s.p50)} ms, p95 ${ms(s.p95)} ms, max ${ms(s.max)} ms (${failed} batches not fully accepted).`,
    );
    console.log(`Emails accepted a second: ${ms((emails / answeredMs) * 1000)}.`);
    console.log(
      `Stack CPU per email while the batches were answered: ${ms(requestCpu, 2)} ms (Node ${ms((answered.node - before.node) / emails, 2)}, DynamoDB Local ${ms((answered.java - before.java) / emails, 2)}; the pipeline's work meanwhile included) -> goal ${BATCH_CPU_GOAL_MS} ms: ${requestCpu <= BATCH_CPU_GOAL_MS ? 'MET' : 'MISSED'}.`,
    );
    console.log(
      `Stack CPU per email to delivered (until the pipeline drained): ${ms((drained.node - before.node + (drained.java - before.java)) / emails, 2)} ms.`,
    );
    const own = observed?.requestPath?.product;
    console.log(
      own === undefined
        ? "The request path's own CPU (the product's share of the API thread while the batches were answered): with --cpu-prof."
        : `The request path's own CPU per email (the product's share of the API thread while the batches were answered): ${ms(own, 2)} ms -> goal ${BATCH_CPU_GOAL_MS} ms: ${own <= BATCH_CPU_GOAL_MS ? 'MET' : 'MISSED'}.`,
    );
    observer.print((line = '') => console.log(line), 'email');
  }).finally(() => rmSync(scratch, { recursive: true, force: true }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
