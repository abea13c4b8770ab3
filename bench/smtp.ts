/**
 * `npm run bench:smtp`: messages/s and latency through the SMTP relay at concurrency 1 and 16 with
 * nodemailer (pooled, STARTTLS + AUTH), for a small text email and a 30 KB html one side by side, against a
 * floor measured in the same run: an smtp-server on loopback with the same TLS and AUTH settings that stores
 * each message as the relay must before its 250 (the send's one read beside the raw message's S3 PUT, then
 * the email's conditional write: a copy of a relay email, which the pipeline delivers as the relay's:
 * lib/durable-floors.ts), driven by the same client, its pipeline drained as the relay's. Goal: the relay at
 * least 0.5x the floor. Then accept -> delivered for sequential relay messages. Prints figures, asserts nothing.
 *
 *   npm run bench:smtp -- [--duration 10] [--warmup 5] [--concurrency 1,16] [--html-kb 0,30] [--delivered 30]
 *                         [--count-calls] [--cpu-prof] [--cost]
 *
 * --html-kb      the message bodies, one relay phase (and floor phase) per size at each concurrency: N KB of
 *                html beside a short text (0: the short text only).
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
import { readStackFile } from '#localstack/cloud/stack/stack-file';
import { loadConfig } from '#shared/config/config';
import { buildServices } from '#shared/services';
import { createAccount } from '#shared/usecases/access/accounts';
import { observeFlags, StackObserver } from './lib/stack-observer';
import { AWS_SETTINGS_ENV } from './lib/aws-settings';
import { jsonCaller, verifiedDomain } from './lib/fixtures';
import { HttpClient, type PhaseResult } from './lib/load';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { mailLoop, relayCertificate, smtpPool, workerQueues, type SmtpTransport } from './lib/smtp-load';
import { relayFloorStore, startDurableFloor } from './lib/durable-floors';
import { emailCopier } from './send/floors/email-copies';
import { sendContextRead } from './send/floors/new-floors';
import { htmlOfAbout } from './send/sender';
import { INLINE_MIME_LIMIT } from '#shared/usecases/send/content-keys';
import { keys } from '#shared/adapters/store/keys';
import { hashSecret } from '#shared/domain/api-keys/secret';
import { newId } from '#shared/domain/ids';
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
const HTML_KBS = flag('html-kb', '0,30').split(',').map(Number);
export const RELAY_FLOOR_GOAL = 0.5;
const OBSERVE = observeFlags(args);
const log = (message: string) => console.error(`[bench:smtp] ${message}`);

/** A transactional email: a short text, and about `htmlKb` KB of html beside it (0: the text only). */
function message(from: string, n: number, htmlKb = 0) {
  const html = htmlKb ? htmlOfAbout(htmlKb).replace('{n}', String(n)) : undefined;
  return {
    from: `Acme <${from}>`,
    to: `success+${n}@simulator.amazonses.com`,
    subject: `Order ${n} shipped`,
    text: `Your order ${n} has shipped and will arrive soon.`,
    ...(html ? { html } : {}),
    headers: { 'X-Service-Tags': 'kind=shipping' },
  };
}

/** Message `n` through `transport`, its id (from the 250's `queued as`) kept in `ids`. */
function phase(
  transport: SmtpTransport,
  from: string,
  concurrency: number,
  durationMs: number,
  htmlKb: number,
  ids?: string[],
): Promise<PhaseResult> {
  return mailLoop(
    transport,
    (n) => message(from, n, htmlKb),
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
    const { account, secret } = await createAccount(services, {
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
    const pids = descendants(stack.child.pid!);

    const warm = relayPool(Number(relayPort), ca, password, 8);
    log(`warm-up ${WARMUP_MS / 1000} s`);
    await phase(warm, from, 8, WARMUP_MS, 0);

    // The floor stores each message as the relay must (lib/durable-floors.ts): its emails are copies of one the
    // relay wrote (read back before the pipeline claimed it), their raw messages under the same retention class.
    const { client: doc, name: tableName } = services.table;
    const copyEmail = await emailCopier({
      tableName,
      doc,
      keys,
      newId,
      recipient: (n) => `success+${n}@simulator.amazonses.com`,
      // A message over INLINE_MIME_LIMIT: its item names the raw message's key under the account's class.
      apiSend: async (n) => {
        const sent = await warm.sendMail(message(from, n, 4));
        const id = /queued as (msg_[0-9A-Z]+)/.exec(sent.response)?.[1];
        return { ok: Boolean(id), label: sent.response.slice(0, 3), ...(id ? { id } : {}) };
      },
    });
    warm.close();
    const credentialHash = hashSecret(password);
    const floor = await startDurableFloor(
      relayCertificate(scratch),
      true,
      relayFloorStore({
        read: async (n) => {
          await sendContextRead(
            { tableName, doc, keys, keyHash: credentialHash, accountId: account.id, domainName },
            `success+${n}@simulator.amazonses.com`,
          );
        },
        putRaw: (key, raw) => services.blobs.put(key, raw, 'message/rfc822'),
        newEmail: (n, raw) => {
          const item = copyEmail(n, true);
          const id = String(item.id);
          // As the relay keeps it: in the item up to INLINE_MIME_LIMIT, else in the bucket.
          const rawKey =
            raw.length <= INLINE_MIME_LIMIT ? undefined : String(item.mime_blob_key).replace(/raw\/msg_[0-9A-Z]+\.eml$/, `raw/${id}.eml`);
          if (rawKey) item.mime_blob_key = rawKey;
          else {
            delete item.mime_blob_key;
            item.mime_inline = raw;
          }
          return {
            id,
            rawKey,
            write: async () => {
              await doc.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }));
            },
          };
        },
      }),
    );

    const { control, pipeline } = workerQueues(info!.env);
    const rows: string[][] = [];
    for (const c of CONCURRENCY) {
      for (const htmlKb of HTML_KBS) {
        const body = htmlKb ? `text + ${htmlKb} KB html` : 'short text';
        const relay = relayPool(Number(relayPort), ca, password, c);
        await pipeline.drain();
        const mark = observing ? await observer.mark(stack.apiUrl) : undefined;
        const cpuBefore = cpuSecondsByCommand(pids);
        const benchBefore = process.cpuUsage();
        log(`relay c=${c}, ${body}`);
        const r = await phase(relay, from, c, DURATION_MS, htmlKb);
        const stackCpu = Object.values(diffCpu(cpuSecondsByCommand(pids), cpuBefore)).reduce((a, b) => a + b, 0);
        const benchCpu = process.cpuUsage(benchBefore);
        relay.close();
        log(`relay c=${c}: draining the pipeline`);
        await pipeline.drain();
        if (mark) await observer.since(mark, stack.apiUrl, `relay c=${c}, ${body}`, { messages: r.ok, apiRequests: 0 });
        const floorPool = relayPool(floor.port, undefined, 'x', c);
        log(`floor c=${c}, ${body}`);
        const f = await phase(floorPool, from, c, DURATION_MS, htmlKb);
        floorPool.close();
        // The floor's emails go through the same pipeline: drained before the next phase, as the relay's.
        await pipeline.drain();
        const [rs, fs] = [summarise(r.latencies), summarise(f.latencies)];
        const [rRate, fRate] = [(r.ok / r.elapsedMs) * 1000, (f.ok / f.elapsedMs) * 1000];
        rows.push([
          String(c),
          body,
          ms(rRate),
          `${ms(rs.p50)} / ${ms(rs.p95)} / ${ms(rs.p99)}`,
          ms(fRate),
          `${ms(fs.p50)} / ${ms(fs.p95)} / ${ms(fs.p99)}`,
          `${(rRate / fRate).toFixed(2)} (${rRate / fRate >= RELAY_FLOOR_GOAL ? 'PASS' : 'MISS'})`,
          ms((stackCpu * 1000) / Math.max(1, r.ok)),
          ms((benchCpu.user + benchCpu.system) / 1000 / Math.max(1, r.ok)),
          r.errors || f.errors ? JSON.stringify({ relay: r.outcomes, floor: f.outcomes }) : '0',
        ]);
      }
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
      `\nSMTP relay benchmark: ${DURATION_MS / 1000} s per phase, messages of a short text${HTML_KBS.filter(Boolean)
        .map((kb) => ` and of text + ${kb} KB html`)
        .join('')} from a verified domain, nodemailer pooled STARTTLS + AUTH.`,
    );
    console.log(`Load average before ${loadBefore}, after ${loadAfter}.\n`);
    console.log(
      table(
        [
          'c',
          'body',
          'relay msg/s',
          'relay p50 / p95 / p99 ms',
          'floor msg/s',
          'floor p50 / p95 / p99 ms',
          `relay / floor (goal ${RELAY_FLOOR_GOAL})`,
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
    console.log(
      "The floor is an smtp-server (same TLS, AUTH and client) that stores each message as the relay must before its 250: the send's one read beside the raw message's S3 PUT, then the email's conditional write, delivered by the same pipeline (lib/durable-floors.ts). The gap is what the relay does beyond that (its reads at MAIL FROM and RCPT TO, parsing the message, the policy).",
    );
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
