/**
 * `npm run bench:inbound`: received messages per second through the MX listener to `email.received`, at
 * concurrency 1 and 16 with nodemailer (pooled, STARTTLS, no AUTH, as a sending server), against a floor
 * measured in the same run: an smtp-server on loopback with the same TLS certificate that stores each message
 * as the MX must before its 250 (the raw message's S3 PUT, then one inbound queue message the inbound worker
 * records as the MX's: lib/durable-floors.ts), driven by the same client, its pipeline drained as the MX's.
 * Prints figures; asserts nothing.
 *
 *   npm run bench:inbound -- [--duration 10] [--warmup 5] [--concurrency 1,16] [--count-calls] [--cpu-prof] [--cost]
 *
 * Per phase: messages accepted per second (the MX's 250, which comes after the raw message is in S3 and
 * queued), latency to the 250, and the whole way through: from the first message to the inbound worker
 * having recorded every one (the pipeline drained: inbound queue, webhook events), with the stack's CPU per
 * message over that window (/proc: Node and DynamoDB Local). The goal (issue 32): the MX at least 0.5x the
 * floor's messages per second.
 *
 * --count-calls, --cpu-prof, --cost (lib/stack-observer.ts): over each MX phase until drained, the SDK calls
 * per message of every process of the stack (the MX's included), the busiest threads' CPU profiles, and the
 * dollars per million received messages by service (the MX's Fargate task and NLB are fixed monthly costs).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStackFile } from '#localstack/cloud/stack/stack-file';
import { loadConfig } from '#shared/config/config';
import { buildServices } from '#shared/services';
import { createAccount } from '#shared/usecases/access/accounts';
import { spawnStack } from '#test/integration/harness/spawn-stack';
import { observeFlags, StackObserver } from './lib/stack-observer';
import { AWS_SETTINGS_ENV } from './lib/aws-settings';
import { jsonCaller, verifiedDomain } from './lib/fixtures';
import { HttpClient, type PhaseResult } from './lib/load';
import { mailLoop, relayCertificate, smtpPool, workerQueues, type SmtpTransport } from './lib/smtp-load';
import { mxFloorStore, startDurableFloor } from './lib/durable-floors';
import { newId, ulid } from '#shared/domain/ids';
import { inboundKeys } from '#shared/domain/inbound/content-keys';
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
const OBSERVE = observeFlags(args);
export const INBOUND_FLOOR_GOAL = 0.5;
const log = (message: string) => console.error(`[bench:inbound] ${message}`);

/** About 5 KB: a reply with text and HTML, as a support desk receives. */
function message(to: string, n: number) {
  const paragraph = 'Thanks for the quick answer. The order arrived today, but one item is missing from the box. ';
  return {
    from: `Customer ${n} <customer${n}@sender.example-mail.test>`,
    to,
    subject: `Re: Order ${n}`,
    text: paragraph.repeat(20),
    html: `<html><body>${`<p>${paragraph}</p>`.repeat(25)}</body></html>`,
  };
}

/** A sending server's connections to the MX (or the floor): no AUTH, STARTTLS required, pooled. */
const senderPool = (port: number, ca: Buffer | undefined, connections: number) =>
  smtpPool({ port, ca, connections, name: 'sender.example-mail.test' });

const phase = (transport: SmtpTransport, to: string, concurrency: number, durationMs: number): Promise<PhaseResult> =>
  mailLoop(transport, (n) => message(to, n), concurrency, durationMs);

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-inbound-'));
  const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const observer = new StackObserver(OBSERVE, scratch);
  const observing = OBSERVE.countCalls || OBSERVE.cpuProf || OBSERVE.cost;
  log('starting an in-memory local cloud');
  const stack = await spawnStack({
    dataDir: scratch,
    inMemory: true,
    timeoutMs: 120_000,
    env: { LOCAL_TASK_PERIOD_MS: '60000', ...AWS_SETTINGS_ENV, ...observer.stackEnv() },
  });
  try {
    const info = readStackFile(scratch)! as ReturnType<typeof readStackFile> & { mx?: string; smtp_ca_file?: string };
    Object.assign(process.env, info!.env);
    const services = buildServices(loadConfig(process.env));
    const [, mxPort] = (info!.mx ?? '').split(':');
    const ca = info!.smtp_ca_file ? readFileSync(info!.smtp_ca_file) : undefined;

    // Fixtures: an account with a verified receiving domain; the sender's SPF allows loopback.
    const suffix = Math.random().toString(36).slice(2, 8);
    const { account, secret } = await createAccount(services, {
      email: `bench-${suffix}@example.com`,
      plan: 'dedicated',
      paymentMethod: true,
      tenants: false,
    });
    const http = new HttpClient(stack.apiUrl, 4);
    const call = jsonCaller(http, { authorization: `Bearer ${secret}`, 'content-type': 'application/json' });
    const domain = await verifiedDomain(call, `bench-${suffix}.example-mail.test`, { inbound_enabled: true });
    await call('PUT', '/_local/dns/records', { name: 'sender.example-mail.test', type: 'TXT', values: ['v=spf1 ip4:127.0.0.0/8 -all'] });
    const to = `support@${domain.inbound_subdomain!}`;
    // The floor uses the MX's own certificate (the relay task's), so both sides do the same TLS work, and
    // stores each message as the MX must: the PUT, then the inbound queue message (the worker records it).
    const floor = await startDurableFloor(
      relayCertificate(scratch),
      false,
      mxFloorStore({
        rawKey: () => inboundKeys.raw(ulid(Date.now())),
        putRaw: (key, raw) => services.blobs.put(key, raw, 'message/rfc822'),
        enqueue: async (rawKey, size, session) => {
          const emailId = newId('inb', Date.now());
          await services.inboundQueue.enqueueAll([
            {
              email_id: emailId,
              account_id: account.id,
              domain_id: domain.id,
              tenant_id: null,
              tenant: null,
              raw_key: rawKey,
              size,
              received_at: new Date().toISOString(),
              mail_from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              rcpt_to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              remote_address: (session.remoteAddress ?? '').replace(/^::ffff:/, ''),
              helo: session.hostNameAppearsAs ?? '',
              tls: Boolean(session.secure),
              // The floor checks nothing: what the MX's SPF, DKIM and DMARC lookups cost is in the gap.
              authentication: { spf: { result: 'none', domain: null }, dkim: [], dmarc: { result: 'none', domain: null, policy: null } },
            },
          ]);
          return emailId;
        },
      }),
    );
    const pids = descendants(stack.child.pid!);
    const { control, pipeline } = workerQueues(info!.env);

    const warm = senderPool(Number(mxPort), ca, 8);
    log(`warm-up ${WARMUP_MS / 1000} s`);
    await phase(warm, to, 8, WARMUP_MS);
    warm.close();
    await pipeline.drain();

    const rows: string[][] = [];
    for (const c of CONCURRENCY) {
      const mx = senderPool(Number(mxPort), ca, c);
      const mark = observing ? await observer.mark(stack.apiUrl) : undefined;
      const cpuBefore = cpuSecondsByCommand(pids);
      const started = performance.now();
      log(`MX c=${c}`);
      const r = await phase(mx, to, c, DURATION_MS);
      mx.close();
      await pipeline.drain();
      const throughMs = performance.now() - started;
      const stackCpu = Object.values(diffCpu(cpuSecondsByCommand(pids), cpuBefore)).reduce((a, b) => a + b, 0);
      if (mark) await observer.since(mark, stack.apiUrl, `MX c=${c}`, { messages: r.ok, apiRequests: 0 });
      const floorPool = senderPool(floor.port, undefined, c);
      log(`floor c=${c}`);
      const floorStarted = performance.now();
      const f = await phase(floorPool, to, c, DURATION_MS);
      floorPool.close();
      // The floor's messages go through the same pipeline: drained before the next phase, as the MX's.
      await pipeline.drain();
      const floorThroughMs = performance.now() - floorStarted;
      const [rs, fs] = [summarise(r.latencies), summarise(f.latencies)];
      const [rRate, fRate] = [(r.ok / r.elapsedMs) * 1000, (f.ok / f.elapsedMs) * 1000];
      rows.push([
        String(c),
        ms(rRate),
        `${ms(rs.p50)} / ${ms(rs.p95)} / ${ms(rs.p99)}`,
        ms((r.ok / throughMs) * 1000),
        ms(fRate),
        ms((f.ok / floorThroughMs) * 1000),
        `${ms(fs.p50)} / ${ms(fs.p95)} / ${ms(fs.p99)}`,
        `${(rRate / fRate).toFixed(2)} (${rRate / fRate >= INBOUND_FLOOR_GOAL ? 'PASS' : 'MISS'})`,
        ms((stackCpu * 1000) / Math.max(1, r.ok)),
        r.errors ? JSON.stringify(r.outcomes) : '0',
      ]);
    }
    await floor.close();
    control.destroy();

    // Every message accepted was recorded: the account's received emails against what the MX accepted.
    const loadAfter = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(
      `\nInbound benchmark: ${DURATION_MS / 1000} s per phase, ~5 KB messages (text + HTML) to ${to.replace(/^[^@]+/, 'support')}, nodemailer pooled STARTTLS (no AUTH).`,
    );
    console.log(`Load average before ${loadBefore}, after ${loadAfter}.\n`);
    console.log(
      table(
        [
          'c',
          'MX msg/s (250)',
          'MX p50 / p95 / p99 ms',
          'received msg/s (first to drained)',
          'floor msg/s (250)',
          'floor received msg/s (first to drained)',
          'floor p50 / p95 / p99 ms',
          `MX / floor (goal ${INBOUND_FLOOR_GOAL})`,
          'stack CPU ms/msg (to drained)',
          'errors',
        ],
        rows,
      ),
    );
    console.log(
      "\nThe floor is an smtp-server (same TLS certificate and client) that stores each message as the MX must before its 250 (S3 PUT, then one inbound queue message) and whose messages the inbound worker records as the MX's (lib/durable-floors.ts): the gap is what the MX does beyond that (its SPF, DKIM and DMARC lookups, the raw message markers).",
    );
    observer.print((line = '') => console.log(line), 'received message');
  } finally {
    await stack.stop('SIGINT');
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
