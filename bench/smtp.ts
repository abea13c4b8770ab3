/**
 * `npm run bench:smtp`: messages/s and latency through the SMTP relay at concurrency 1 and 16 with
 * nodemailer (pooled, STARTTLS + AUTH), against a floor measured in the same run: a bare smtp-server on
 * loopback with the same TLS and AUTH settings that accepts and discards the same messages, driven by the
 * same client. Then accept -> delivered for sequential relay messages. Prints figures, asserts nothing.
 *
 *   npm run bench:smtp -- [--duration 10] [--warmup 5] [--concurrency 1,16] [--delivered 30]
 *                         [--count-calls] [--cpu-prof] [--cost]
 *
 * --count-calls, --cpu-prof, --cost (lib/stack-observer.ts): over each relay phase until the pipeline
 * drained, the SDK calls per message of every process of the stack (the relay task's included), the
 * busiest threads' CPU profiles, and the dollars per million delivered relay emails by service.
 *
 * Latency is from the start of sendMail to the 250 reply (connection reuse from the pool included).
 * CPU: the stack's whole process tree (/proc) and the bench process, per accepted message.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnStack } from '#test/integration/harness/spawn-stack';
import { readStackFile } from '#localstack/cloud/stack-file';
import { loadConfig } from '#shared/config/config';
import { buildServices } from '#shared/services';
import { createAccount } from '#shared/usecases/access/accounts';
import { observeFlags, StackObserver } from './lib/stack-observer';
import { AWS_SETTINGS_ENV } from './lib/aws-settings';
import { jsonCaller, verifiedDomain } from './lib/fixtures';
import { HttpClient, type PhaseResult } from './lib/load';
import { mailLoop, relayCertificate, smtpPool, startDiscardingServer, workerQueues, type SmtpTransport } from './lib/smtp-load';
import { cpuSecondsByCommand, descendants, diffCpu } from './lib/process-tree';
import { ms, summarise, table } from './lib/stats';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1]! : fallback;
};
const DURATION_MS = Number(flag('duration', '10')) * 1000;
const WARMUP_MS = Number(flag('warmup', '5')) * 1000;
const CONCURRENCY = flag('concurrency', '1,16').split(',').map(Number);
const DELIVERED = Number(flag('delivered', '30'));
const OBSERVE = observeFlags(args);
const log = (message: string) => console.error(`[bench:smtp] ${message}`);

/** About 5 KB: a transactional email with text and HTML. */
function message(from: string, n: number) {
  const paragraph = 'Your order has shipped and will arrive soon. Track it from your account page at any time. ';
  return {
    from: `Acme <${from}>`,
    to: `success+${n}@simulator.amazonses.com`,
    subject: `Order ${n} shipped`,
    text: paragraph.repeat(20),
    html: `<html><body>${`<p>${paragraph}</p>`.repeat(25)}</body></html>`,
    headers: { 'X-Service-Tags': 'kind=shipping' },
  };
}

/** Message `n` through `transport`, its id (from the 250's `queued as`) kept in `ids`. */
function phase(transport: SmtpTransport, from: string, concurrency: number, durationMs: number, ids?: string[]): Promise<PhaseResult> {
  return mailLoop(
    transport,
    (n) => message(from, n),
    concurrency,
    durationMs,
    (response) => {
      const id = /queued as (msg_[0-9A-Z]+)/.exec(response)?.[1];
      if (id) ids?.push(id);
    },
  );
}

const relayPool = (port: number, ca: Buffer | undefined, password: string, connections: number) =>
  smtpPool({ port, ca, password, connections });

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-smtp-'));
  const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  log('starting an in-memory local cloud');
  const observer = new StackObserver(OBSERVE, scratch);
  const observing = OBSERVE.countCalls || OBSERVE.cpuProf || OBSERVE.cost;
  const stack = await spawnStack({
    dataDir: scratch,
    inMemory: true,
    timeoutMs: 120_000,
    env: { LOCAL_TASK_PERIOD_MS: '60000', ...AWS_SETTINGS_ENV, ...observer.stackEnv() },
  });
  try {
    const info = readStackFile(scratch)! as ReturnType<typeof readStackFile> & { smtp?: string; smtp_ca_file?: string };
    Object.assign(process.env, info!.env);
    const services = buildServices(loadConfig(process.env));
    const [, relayPort] = (info!.smtp ?? '').split(':');
    const ca = info!.smtp_ca_file ? readFileSync(info!.smtp_ca_file) : undefined;

    // Fixtures: a dedicated-plan account with a verified domain and an SMTP credential.
    const suffix = Math.random().toString(36).slice(2, 8);
    const { secret } = await createAccount(services, {
      email: `bench-${suffix}@example.com`,
      plan: 'dedicated',
      paymentMethod: true,
      tenants: false,
    });
    const http = new HttpClient(stack.apiUrl, 4);
    const call = jsonCaller(http, { authorization: `Bearer ${secret}`, 'content-type': 'application/json' });
    const domainName = `bench-${suffix}.example-mail.test`;
    await verifiedDomain(call, domainName);
    const { password } = await call('POST', '/smtp-credentials', { name: 'bench' });
    const from = `bench@${domainName}`;
    const floor = await startDiscardingServer(relayCertificate(scratch), true);
    const pids = descendants(stack.child.pid!);

    const warm = relayPool(Number(relayPort), ca, password, 8);
    log(`warm-up ${WARMUP_MS / 1000} s`);
    await phase(warm, from, 8, WARMUP_MS);
    warm.close();

    const { control, pipeline } = workerQueues(info!.env);
    const rows: string[][] = [];
    for (const c of CONCURRENCY) {
      const relay = relayPool(Number(relayPort), ca, password, c);
      await pipeline.drain();
      const mark = observing ? await observer.mark(stack.apiUrl) : undefined;
      const cpuBefore = cpuSecondsByCommand(pids);
      const benchBefore = process.cpuUsage();
      log(`relay c=${c}`);
      const r = await phase(relay, from, c, DURATION_MS);
      const stackCpu = Object.values(diffCpu(cpuSecondsByCommand(pids), cpuBefore)).reduce((a, b) => a + b, 0);
      const benchCpu = process.cpuUsage(benchBefore);
      relay.close();
      if (mark) {
        log(`relay c=${c}: draining the pipeline for what it observed`);
        await pipeline.drain();
        await observer.since(mark, stack.apiUrl, `relay c=${c}`, { messages: r.ok, apiRequests: 0 });
      }
      const floorPool = relayPool(floor.port, undefined, 'x', c);
      log(`floor c=${c}`);
      const f = await phase(floorPool, from, c, DURATION_MS);
      floorPool.close();
      const [rs, fs] = [summarise(r.latencies), summarise(f.latencies)];
      const [rRate, fRate] = [(r.ok / r.elapsedMs) * 1000, (f.ok / f.elapsedMs) * 1000];
      rows.push([
        String(c),
        ms(rRate),
        `${ms(rs.p50)} / ${ms(rs.p95)} / ${ms(rs.p99)}`,
        ms(fRate),
        `${ms(fs.p50)} / ${ms(fs.p95)} / ${ms(fs.p99)}`,
        (rRate / fRate).toFixed(2),
        ms((stackCpu * 1000) / Math.max(1, r.ok)),
        ms((benchCpu.user + benchCpu.system) / 1000 / Math.max(1, r.ok)),
        r.errors ? JSON.stringify(r.outcomes) : '0',
      ]);
    }

    // Accept -> delivered: sequential messages, each polled until delivered.
    log(`accept -> delivered, ${DELIVERED} messages`);
    const single = relayPool(Number(relayPort), ca, password, 1);
    const accepted: number[] = [];
    const delivered: number[] = [];
    for (let n = 0; n < DELIVERED; n++) {
      const t0 = performance.now();
      const info = await single.sendMail(message(from, n));
      accepted.push(performance.now() - t0);
      const id = /queued as (msg_[0-9A-Z]+)/.exec(info.response)?.[1];
      for (;;) {
        const { email } = await call('GET', `/emails/${id}`);
        if (email.status === 'delivered') break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      delivered.push(performance.now() - t0);
    }
    single.close();
    await floor.close();
    const [a, d] = [summarise(accepted), summarise(delivered)];

    const loadAfter = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(
      `\nSMTP relay benchmark: ${DURATION_MS / 1000} s per phase, ~5 KB messages (text + HTML) from a verified domain, nodemailer pooled STARTTLS + AUTH.`,
    );
    console.log(`Load average before ${loadBefore}, after ${loadAfter}.\n`);
    console.log(
      table(
        [
          'c',
          'relay msg/s',
          'relay p50 / p95 / p99 ms',
          'floor msg/s',
          'floor p50 / p95 / p99 ms',
          'relay / floor',
          'stack CPU ms/msg',
          'bench CPU ms/msg',
          'errors',
        ],
        rows,
      ),
    );
    console.log(
      `\nAccept -> 250 (sequential, pooled connection): p50 ${ms(a.p50)} ms, p95 ${ms(a.p95)} ms. Accept -> delivered: p50 ${ms(d.p50)} ms, p95 ${ms(d.p95)} ms (${DELIVERED} messages).`,
    );
    console.log('The floor is a bare smtp-server (same TLS, AUTH and client) that discards each message: what SMTP itself costs here.');
    observer.print((line = '') => console.log(line), 'relay email');
    control.destroy();
  } finally {
    await stack.stop('SIGINT');
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
