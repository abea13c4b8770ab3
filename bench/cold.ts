/**
 * Cold starts and CPU per request of the Lambdas (issue 17, "Lean bundles"; docs/benchmarks.md, docs/deploy.md
 * "Memory sizing"). Prints, never asserts.
 *
 *   npm run bench:cold [-- --runs 5 --requests 30 --only emails,dashboard --no-requests]
 *
 * 1. Cold initialisation. Every Lambda's bundle is built as `npm run build` builds it (minified, the same
 *    plugins), plus one statement at the start of the entry's own code that marks the end of module loading.
 *    Each run requires it in a fresh `node` process (bench/lib/cold-child.cjs) with the environment the
 *    Lambda has (resource names and URLs pointing at nothing: initialisation makes no calls) and reports:
 *    boot (node's own start), load (the bundle's modules evaluated), composition root (the entry's own code:
 *    config, clients, repositories, the app), CPU time (user + system) of both, heap and RSS after. Each
 *    function runs --runs times without source maps and --runs times with --enable-source-maps (Lambda's
 *    NODE_OPTIONS here: infra/constructs/service-function.ts); medians. Floors in the same run: an empty
 *    handler (node alone) and a bundle of the DynamoDB document client alone (the SDK's least).
 * 2. CPU per request. An in-memory local cloud (the send worker held: LOCAL_HOLD_WORKERS), then the emails,
 *    dashboard, dashboard-emails and send-email bundles required in this process, invoked with API Gateway
 *    and SQS events against it: POST /emails, GET /emails/{id}, GET /emails, GET /dashboard/api-keys,
 *    GET /dashboard/emails[/{id}], the send worker's delivery of one message (compose, DKIM-sign with a
 *    verified domain's key, SES) and, when built, the inbound worker's reading of one received message
 *    (~60 KiB: parse, store its parts, record, publish). CPU time per
 *    invocation (this process's only work; the local cloud runs in its own) after --warmup invocations, and
 *    the first one's. On AWS a function gets CPU in proportion to its memory (1,769 MB = one vCPU), so
 *    these figures divided by that share estimate the compute part of a request's duration.
 *
 * The machine's cores are not Lambda's (arm64 Graviton): compare functions with each other and with the
 * floors, not with AWS's absolute numbers.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { buildFunctions, type BuiltFunction } from '#infra/build';
import { functionEntries } from '#infra/functions';
import { ENV } from '#shared/config/config';
import { ms, percentile, table } from './lib/stats';
import { loadProduct as load, withInMemoryStack } from './lib/bench-stack';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    requests: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
    only: { type: 'string' },
    'no-requests': { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const REQUESTS = Number(values.requests);
const WARMUP = Number(values.warmup);
const ONLY = values.only ? new Set(values.only.split(',')) : null;
const CHILD = join(__dirname, 'lib', 'cold-child.cjs');
const MARK = 'globalThis.__coldMark?.();';
const run = promisify(execFile);
const log = (message: string) => console.error(`[bench:cold] ${message}`);

/** What a Lambda's environment holds at init: region, the role's credentials, every resource variable (pointing at nothing). */
function lambdaEnvironment(name: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    AWS_SESSION_TOKEN: 'bench',
    AWS_LAMBDA_FUNCTION_NAME: `mailservice-${name}`,
    // This machine's Node may be older than the bundles' target: the SDK's warning would be one more write.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    LOG_LEVEL: 'silent',
  };
  for (const variable of Object.values(ENV)) {
    env[variable] = variable.endsWith('_URL')
      ? `https://sqs.us-east-1.amazonaws.com/123456789012/${variable.toLowerCase()}`
      : variable.endsWith('_ARN')
        ? `arn:aws:sqs:us-east-1:123456789012:${variable.toLowerCase()}`
        : `mailservice-${variable.toLowerCase()}`;
  }
  env[ENV.secretsKeyId] = 'arn:aws:kms:us-east-1:123456789012:key/00000000-0000-0000-0000-000000000000';
  env[ENV.awsAccountId] = '123456789012';
  delete env[ENV.localSecretsKeyFile];
  return env;
}

interface Sample {
  bootMs: number;
  loadMs: number;
  loadCpuMs: number;
  rootMs: number;
  rootCpuMs: number;
  heapMiB: number;
  rssMiB: number;
}

async function coldStart(file: string, name: string, sourceMaps: boolean): Promise<Sample> {
  const args = [...(sourceMaps ? ['--enable-source-maps'] : []), CHILD, file];
  const { stdout } = await run(process.execPath, args, { env: lambdaEnvironment(name), maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as Sample;
}

const median = (samples: number[]) =>
  percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );

async function coldStarts(bundles: { name: string; file: string; bytes: number }[]): Promise<void> {
  const rows: string[][] = [];
  for (const bundle of bundles) {
    const plain: Sample[] = [];
    const mapped: Sample[] = [];
    // Interleaved, so a slow moment of the machine hits both kinds alike.
    for (let i = 0; i < RUNS; i++) {
      plain.push(await coldStart(bundle.file, bundle.name, false));
      mapped.push(await coldStart(bundle.file, bundle.name, true));
    }
    const m = (samples: Sample[], key: keyof Sample) => median(samples.map((s) => s[key]));
    const init = (samples: Sample[]) => median(samples.map((s) => s.loadMs + s.rootMs));
    rows.push([
      bundle.name,
      ms(bundle.bytes / 1024, 0),
      ms(m(plain, 'bootMs')),
      `${ms(m(plain, 'loadMs'))} (${ms(m(plain, 'loadCpuMs'))})`,
      `${ms(m(plain, 'rootMs'))} (${ms(m(plain, 'rootCpuMs'))})`,
      ms(init(plain)),
      ms(init(mapped)),
      ms(m(plain, 'heapMiB'), 0),
      ms(m(plain, 'rssMiB'), 0),
    ]);
    log(`${bundle.name}: init ${ms(init(plain))} ms, with source maps ${ms(init(mapped))} ms`);
  }
  console.log(`\n## Cold initialisation (median of ${RUNS} fresh processes each; node ${process.version}, ${process.arch})\n`);
  console.log(
    table(
      [
        'function',
        'bundle KiB',
        'node boot ms',
        'load ms (CPU ms)',
        'composition root ms (CPU ms)',
        'init ms',
        'init ms, --enable-source-maps',
        'heap MiB',
        'RSS MiB',
      ],
      rows,
    ),
  );
  console.log("\ninit = load + composition root (wall); boot is node's own start, before the bundle (Lambda's runtime has it too).");
}

// ---- CPU per request, against an in-memory local cloud ----

type Handler = (
  event: unknown,
  context: unknown,
) => Promise<
  | { statusCode?: number; body?: string; headers?: Record<string, string>; cookies?: string[] }
  | undefined
  | { batchItemFailures: unknown[] }
>;

function apiEvent(method: string, rawPath: string, headers: Record<string, string>, body?: string) {
  const [path, query = ''] = rawPath.split('?');
  const cookies = headers.cookie ? headers.cookie.split(/;\s*/) : undefined;
  const { cookie: _, ...rest } = headers;
  const now = new Date();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query,
    ...(cookies ? { cookies } : {}),
    headers: { host: 'localhost', ...rest },
    ...(query ? { queryStringParameters: Object.fromEntries(new URLSearchParams(query)) } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'bench',
      domainName: 'localhost',
      domainPrefix: 'bench',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: `bench-${now.getTime()}`,
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body ? { body, isBase64Encoded: false } : { isBase64Encoded: false }),
  };
}

const context = (name: string) => ({
  callbackWaitsForEmptyEventLoop: false,
  functionName: name,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${name}`,
  memoryLimitInMB: '512',
  awsRequestId: `bench-${Date.now()}`,
  logGroupName: `/aws/lambda/${name}`,
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => 30_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
});

interface Timed {
  cpu: number[];
  wall: number[];
  first: { cpu: number; wall: number };
}

const sleep = (msec: number) => new Promise((done) => setTimeout(done, msec));

/** `count` invocations after `warmup` (the first of all kept apart): CPU and wall time of each; `pauseMs` before each, not timed. */
async function timed(count: number, warmup: number, invoke: (i: number) => Promise<void>, pauseMs = 0): Promise<Timed> {
  const result: Timed = { cpu: [], wall: [], first: { cpu: NaN, wall: NaN } };
  for (let i = 0; i < count + warmup; i++) {
    if (pauseMs) await sleep(pauseMs);
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    await invoke(i);
    const cpu = process.cpuUsage(cpu0);
    const sample = { cpu: (cpu.user + cpu.system) / 1000, wall: performance.now() - wall0 };
    if (i === 0) result.first = sample;
    if (i >= warmup) {
      result.cpu.push(sample.cpu);
      result.wall.push(sample.wall);
    }
  }
  return result;
}

/** A received message as a person sends one: text and HTML alternatives, an inline image, a PDF attachment (~60 KiB). */
function inboundMessage(): Buffer {
  const base64 = (bytes: Buffer) => bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
  const paragraph = 'Thanks for the quick answer. The invoice attached is the one from last month; could you check the VAT line? ';
  const text = Array.from({ length: 40 }, () => paragraph).join('\r\n');
  const html = `<html><body>${Array.from({ length: 40 }, () => `<p>${paragraph}</p>`).join('')}<img src="cid:logo@example.org"></body></html>`;
  const lines = [
    'From: Someone <someone@example.org>',
    'To: Support <support@inbound.example.com>',
    'Subject: =?UTF-8?Q?Re:_Invoice_n=C2=B0_42?=',
    'Message-ID: <bench@example.org>',
    'Date: Tue, 24 Nov 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="mixed"',
    '',
    '--mixed',
    'Content-Type: multipart/related; boundary="related"',
    '',
    '--related',
    'Content-Type: multipart/alternative; boundary="alt"',
    '',
    '--alt',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    text,
    '--alt',
    'Content-Type: text/html; charset=utf-8',
    '',
    html,
    '--alt--',
    '--related',
    'Content-Type: image/png',
    'Content-ID: <logo@example.org>',
    'Content-Transfer-Encoding: base64',
    '',
    base64(Buffer.alloc(8 * 1024, 7)),
    '--related--',
    '--mixed',
    'Content-Type: application/pdf; name="invoice.pdf"',
    'Content-Disposition: attachment; filename="invoice.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    base64(Buffer.alloc(30 * 1024, 3)),
    '--mixed--',
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

async function requestCpu(bundles: Map<string, BuiltFunction>): Promise<void> {
  log('starting an in-memory local cloud (send worker held)');
  await withInMemoryStack('cold', { timeoutMs: 180_000, env: { LOCAL_HOLD_WORKERS: 'send-email' } }, async ({ stack }) => {
    Object.assign(process.env, { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'silent' });
    const { buildServices } = load('shared/services');
    const { loadConfig } = load('shared/config/config');
    const { createAccount } = load('shared/usecases/access/accounts');
    const { createDashboardUser } = load('shared/usecases/dashboard/users');
    const config = loadConfig(process.env);
    const services = buildServices(config);
    const base = stack.apiUrl as string;

    // An account with a verified domain (the send worker signs with its key) and a dashboard user.
    const owner = `bench-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const { account, secret } = await createAccount(services, { email: owner, plan: 'dedicated', paymentMethod: true, tenants: false });
    const password = 'bench cold password';
    await createDashboardUser(services, { accountId: account.id, email: owner, password });
    const auth = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: auth,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<any>;
    };
    const domainName = `cold-${Math.random().toString(36).slice(2, 8)}.example.com`;
    const { domain } = await call('POST', '/domains', { name: domainName });
    for (const record of domain.records as { type: string; name: string; value: string; priority?: number }[]) {
      await call('PUT', '/_local/dns/records', {
        name: record.name,
        type: record.type,
        values: [record.type === 'MX' ? `${record.priority ?? 10} ${record.value}` : record.value],
      });
    }
    const verified = await call('POST', `/domains/${domain.id}`, { action: 'verify' });
    if (verified.domain.status !== 'verified') throw new Error(`the bench domain did not verify: ${JSON.stringify(verified)}`);

    // The bundles, required here (their composition roots read the local cloud's environment set above).
    const handler = (name: string): Handler => (require(bundles.get(name)!.file) as { handler: Handler }).handler;
    const emails = handler('emails');
    const dashboard = handler('dashboard');
    const dashboardEmails = handler('dashboard-emails');
    const sendWorker = handler('send-email');
    const rows: string[][] = [];
    const row = (name: string, what: string, t: Timed) =>
      rows.push([
        name,
        what,
        ms(median(t.cpu)),
        ms(
          percentile(
            [...t.cpu].sort((a, b) => a - b),
            95,
          ),
        ),
        ms(median(t.wall)),
        ms(t.first.cpu),
        ms(t.first.wall),
      ]);

    const sendBody = (i: number) =>
      JSON.stringify({
        from: `Bench <bench@${domainName}>`,
        to: `someone+${i}@example.net`,
        subject: `Cold bench ${i}`,
        html: `<p>Hello ${i}, this is <a href="https://example.com/x">a link</a>.</p>`,
        text: `Hello ${i}`,
      });
    const ids: string[] = [];
    const send = await timed(REQUESTS, WARMUP, async (i) => {
      const result = (await emails(apiEvent('POST', '/emails', auth, sendBody(i)), context('emails'))) as {
        statusCode?: number;
        body?: string;
      };
      if (result.statusCode !== 200) throw new Error(`POST /emails: ${result.statusCode} ${result.body}`);
      ids.push(JSON.parse(result.body!).id);
    });
    row('emails', 'POST /emails', send);
    row(
      'emails',
      'GET /emails/{id}',
      await timed(
        REQUESTS,
        WARMUP,
        async (i) => void (await emails(apiEvent('GET', `/emails/${ids[i % ids.length]}`, auth), context('emails'))),
      ),
    );
    row(
      'emails',
      'GET /emails (25)',
      // GET /emails allows 10 requests per second per account: paced (the pause is not timed).
      await timed(REQUESTS, WARMUP, async () => void (await emails(apiEvent('GET', '/emails?limit=25', auth), context('emails'))), 150),
    );

    const signIn = (await dashboard(
      apiEvent('POST', '/dashboard/sign-in', { 'content-type': 'application/json' }, JSON.stringify({ email: owner, password })),
      context('dashboard'),
    )) as {
      statusCode?: number;
      cookies?: string[];
      headers?: Record<string, string>;
    };
    const cookie = (signIn.cookies?.[0] ?? signIn.headers?.['set-cookie'] ?? '').split(';')[0]!;
    if (!cookie.startsWith('svc_session=')) throw new Error(`dashboard sign-in failed: ${signIn.statusCode}`);
    row(
      'dashboard',
      'GET /dashboard/api-keys',
      await timed(
        REQUESTS,
        WARMUP,
        async () => void (await dashboard(apiEvent('GET', '/dashboard/api-keys', { cookie }), context('dashboard'))),
      ),
    );
    row(
      'dashboard-emails',
      'GET /dashboard/emails',
      await timed(
        REQUESTS,
        WARMUP,
        async () => void (await dashboardEmails(apiEvent('GET', '/dashboard/emails', { cookie }), context('dashboard-emails'))),
      ),
    );
    row(
      'dashboard-emails',
      'GET /dashboard/emails/{id}',
      await timed(
        REQUESTS,
        WARMUP,
        async (i) =>
          void (await dashboardEmails(
            apiEvent('GET', `/dashboard/emails/${ids[i % ids.length]}`, { cookie }),
            context('dashboard-emails'),
          )),
      ),
    );

    // The send worker: the messages the outbox relay put in the (held) send queue, one per invocation.
    const { SQSClient, ReceiveMessageCommand, DeleteMessageBatchCommand } = load('node_modules/@aws-sdk/client-sqs');
    const sqs = new SQSClient({ region: config.region, endpoint: config.endpoints.sqs });
    const records: { messageId: string; receiptHandle: string; body: string }[] = [];
    for (let attempt = 0; records.length < ids.length && attempt < 100; attempt++) {
      const got = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: config.sendQueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 300 }),
      );
      for (const message of got.Messages ?? [])
        records.push({ messageId: message.MessageId, receiptHandle: message.ReceiptHandle, body: message.Body });
    }
    const count = Math.min(REQUESTS, records.length - WARMUP);
    if (count <= 0) throw new Error(`only ${records.length} messages reached the send queue`);
    const deliver = await timed(count, WARMUP, async (i) => {
      const record = records[i]!;
      const event = {
        Records: [
          {
            ...record,
            attributes: { ApproximateReceiveCount: '1' },
            messageAttributes: {},
            md5OfBody: '',
            eventSource: 'aws:sqs',
            eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:send',
            awsRegion: 'us-east-1',
          },
        ],
      };
      const result = (await sendWorker(event, context('send-email'))) as { batchItemFailures?: unknown[] } | undefined;
      if (result?.batchItemFailures?.length) throw new Error(`send-email failed on ${record.messageId}`);
    });
    row('send-email', 'one message (compose, DKIM, SES)', deliver);
    for (let i = 0; i < records.length; i += 10) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: config.sendQueueUrl,
          Entries: records.slice(i, i + 10).map((r, j) => ({ Id: String(j), ReceiptHandle: r.receiptHandle })),
        }),
      );
    }
    sqs.destroy();

    // The inbound worker, when built (--only may leave it out): one received message per invocation, its
    // raw bytes in the bucket as the MX listener leaves them, its SPF/DKIM/DMARC in the queue message.
    if (bundles.has('inbound-email')) {
      const inboundWorker = handler('inbound-email');
      const { newId } = load('shared/domain/ids');
      const raw = inboundMessage();
      const rawKey = `inbound/raw/bench-${Date.now()}.eml`;
      await services.blobs.put(rawKey, raw, 'message/rfc822');
      const checks = {
        spf: { result: 'pass', domain: 'example.org' },
        dkim: [{ result: 'pass', domain: 'example.org', selector: 's1', aligned: true }],
        dmarc: { result: 'pass', domain: 'example.org', policy: 'none' },
      };
      const receive = await timed(REQUESTS, WARMUP, async (i) => {
        const message = {
          email_id: newId('inb'),
          account_id: account.id,
          domain_id: domain.id,
          raw_key: rawKey,
          size: raw.length,
          received_at: new Date().toISOString(),
          mail_from: 'someone@example.org',
          rcpt_to: [`support+${i}@inbound.${domainName}`],
          remote_address: '192.0.2.1',
          helo: 'mail.example.org',
          tls: true,
          authentication: checks,
        };
        const event = {
          Records: [
            {
              messageId: `bench-${i}`,
              receiptHandle: `bench-${i}`,
              body: JSON.stringify(message),
              attributes: { ApproximateReceiveCount: '1' },
              messageAttributes: {},
              md5OfBody: '',
              eventSource: 'aws:sqs',
              eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:inbound',
              awsRegion: 'us-east-1',
            },
          ],
        };
        const result = (await inboundWorker(event, context('inbound-email'))) as { batchItemFailures?: unknown[] } | undefined;
        if (result?.batchItemFailures?.length) throw new Error(`inbound-email failed on message ${i}`);
      });
      row('inbound-email', `one message (${Math.round(raw.length / 1024)} KiB: parse, store parts, record)`, receive);
    }

    console.log(
      `\n## CPU per request (${REQUESTS} after ${WARMUP} warm-up invocations; the bundles in this process, the local cloud in its own)\n`,
    );
    console.log(table(['function', 'request', 'CPU ms p50', 'CPU ms p95', 'wall ms p50', 'first: CPU ms', 'first: wall ms'], rows));
    console.log(
      '\nOn AWS the CPU share is memory / 1,769 MB: CPU ms / share estimates the compute part of a request at that size (docs/deploy.md, "Memory sizing").',
    );
  });
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'mailservice-bench-cold-build-'));
  try {
    const floorsDir = join(scratch, 'floors');
    mkdirSync(floorsDir, { recursive: true });
    writeFileSync(join(floorsDir, 'empty.ts'), 'export const handler = async () => ({});\n');
    writeFileSync(
      join(floorsDir, 'dynamodb.ts'),
      `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => client;
`,
    );
    const entries = functionEntries().filter((entry) => !ONLY || ONLY.has(entry.name));
    log(`building ${entries.length} bundles and 2 floors (minified, as npm run build)`);
    const started = Date.now();
    const floors = await buildFunctions({
      outDir: join(scratch, 'floors-out'),
      entries: [
        { name: 'floor-empty', entry: join(floorsDir, 'empty.ts') },
        { name: 'floor-dynamodb', entry: join(floorsDir, 'dynamodb.ts') },
      ],
      entryPrologue: MARK,
    });
    const built = await buildFunctions({ outDir: join(scratch, 'out'), entries, entryPrologue: MARK });
    log(`built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    await coldStarts([{ ...floors[0]!, name: '(floor) empty handler' }, { ...floors[1]!, name: '(floor) DynamoDB client only' }, ...built]);
    if (!values['no-requests']) {
      const needed = ['emails', 'dashboard', 'dashboard-emails', 'send-email'];
      const byName = new Map(built.map((b) => [b.name, b]));
      const missing = needed.filter((name) => !byName.has(name));
      if (missing.length) log(`CPU per request skipped: --only leaves out ${missing.join(', ')}`);
      else await requestCpu(byName);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
