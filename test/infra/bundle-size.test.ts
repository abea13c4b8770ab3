/**
 * Lean bundles (docs/reference/local-cloud-and-deploy.md, "Lean bundles"): every Lambda's minified bundle within its limit
 * (MAX_BUNDLE_BYTES, 1 MiB, or the ceiling of a queue worker's BUNDLE_SIZE_EXCEPTIONS entry), what each
 * composition root leaves out, and the Lambda bundles' credential chain (the environment's credentials;
 * the other sources left out, failing as an empty link would).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  LAMBDA_UNUSED_CREDENTIAL_SOURCES,
  buildFunctions,
  buildSmtpRelay,
  oversizedBundles,
  sizeReport,
  type BuiltFunction,
} from '#infra/build';
import { WORKERS } from '#infra/definitions';
import { BUNDLE_SIZE_EXCEPTIONS, MAX_BUNDLE_BYTES, bundleLimit, functionEntries } from '#infra/functions';

let tmp: string;
let built: BuiltFunction[];
const bytes = (name: string) => built.find((b) => b.name === name)!.bytes;
const code = (name: string) => fs.readFileSync(built.find((b) => b.name === name)!.file, 'utf8');

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mailservice-bundle-size-'));
  // Every Lambda, minified as deployed (the limit is on these), in one esbuild build: 5-15 s on a 2-core machine.
  built = await buildFunctions({ outDir: path.join(tmp, 'functions') });
}, 300_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('the limit is 1 MiB', () => {
  expect(MAX_BUNDLE_BYTES).toBe(1_048_576);
});

test("every Lambda bundle is within its limit: 1 MiB, or its exception's ceiling; the build says which is over", () => {
  expect(built.map((b) => b.name)).toEqual(functionEntries().map((e) => e.name));
  const report = sizeReport(built).join('\n');
  expect({ over: oversizedBundles(built), report }).toEqual({ over: [], report });
  for (const b of built) expect({ name: b.name, under: b.bytes <= bundleLimit(b.name) }).toEqual({ name: b.name, under: true });
  const over = [{ name: 'big', bytes: MAX_BUNDLE_BYTES + 1, sourceMapBytes: 0, file: 'big.js' }];
  expect(oversizedBundles(over)).toEqual([{ name: 'big', bytes: MAX_BUNDLE_BYTES + 1, limit: MAX_BUNDLE_BYTES }]);
  expect(sizeReport(over)[0]).toContain('OVER THE LIMIT of 1024.0 KiB');
  expect(report).toMatch(/inbound-email .* over 1024\.0 KiB: allowed up to 3072\.0 KiB \(mailparser reads mail from strangers/);
});

test('an exception is only for a queue worker (no one waits on its cold start) that needs it: over 1 MiB today, its ceiling within 10% of its size', () => {
  expect(Object.keys(BUNDLE_SIZE_EXCEPTIONS)).toEqual(['inbound-email']);
  for (const [name, { maxBytes, reason }] of Object.entries(BUNDLE_SIZE_EXCEPTIONS)) {
    expect({ name, queueWorker: WORKERS.some((worker) => worker.name === name) }).toEqual({ name, queueWorker: true });
    expect({ name, over: bytes(name) > MAX_BUNDLE_BYTES, ceilingNear: maxBytes < bytes(name) * 1.1 }).toEqual({
      name,
      over: true,
      ceilingNear: true,
    });
    expect(reason).toMatch(/\d/);
  }
});

test('a bundle holds only the AWS clients and mail libraries its function uses', () => {
  // Client class names survive minification (keepNames); the libraries by a string of their own.
  const has = (name: string, marker: string) => code(name).includes(marker);
  const clients = ['"DynamoDBClient"', '"SQSClient"', '"S3Client"', '"SESv2Client"', '"SchedulerClient"', '"KMSClient"', '"Route53Client"'];
  const clientsOf = (name: string) => clients.filter((marker) => has(name, marker)).map((marker) => marker.replace(/"/g, ''));
  expect(clientsOf('api-keys')).toEqual(['DynamoDBClient']);
  expect(clientsOf('emails')).toEqual(['DynamoDBClient', 'SQSClient', 'S3Client', 'SchedulerClient']);
  expect(clientsOf('domains')).toEqual(['DynamoDBClient', 'SQSClient', 'SESv2Client', 'KMSClient', 'Route53Client']);
  expect(clientsOf('domain-health')).toEqual(['DynamoDBClient', 'SQSClient']);
  expect(clientsOf('send-email')).toEqual(['DynamoDBClient', 'SQSClient', 'S3Client', 'SESv2Client', 'KMSClient']);
  expect(clientsOf('outbox-relay')).toEqual(['DynamoDBClient', 'SQSClient']);
  // Its one table read: whether the account has a webhook endpoint before publishing (its counter).
  expect(clientsOf('tenant-events')).toEqual(['DynamoDBClient', 'SQSClient']);
  // The dashboard's four functions: no one of them bundles every client (infra/definitions/api-groups.ts); the
  // dashboard's sends are immediate and published by the outbox, so dashboard-send holds no SQS or Scheduler client.
  expect(clientsOf('dashboard')).toEqual(['DynamoDBClient', 'SQSClient', 'KMSClient']);
  expect(clientsOf('dashboard-emails')).toEqual(['DynamoDBClient', 'S3Client']);
  expect(clientsOf('dashboard-send')).toEqual(['DynamoDBClient', 'S3Client']);
  expect(clientsOf('dashboard-validations')).toEqual(['DynamoDBClient']);
  expect(clientsOf('dashboard-domains')).toEqual(['DynamoDBClient', 'SQSClient', 'SESv2Client', 'KMSClient', 'Route53Client']);
  // mailparser and its charset tables: the inbound worker only (mail from strangers; the dashboard's
  // preview and the send path read with shared/domain/mime/). mailauth in no Lambda (the MX listener, a container,
  // checks SPF/DKIM/DMARC; the domains group's probe has its own DKIM verifier). undici (mailauth's BIMI)
  // nowhere either. docs/reference/parsers.md.
  for (const b of built) {
    const inbound = b.name === 'inbound-email';
    for (const [library, marker, where] of [
      ['mailparser', 'simpleParser', inbound],
      ['iconv-lite', 'iconv-lite', inbound],
      ['mailauth', 'DkimVerifier', false],
      ['undici', 'UND_ERR_', false],
    ] as const) {
      expect({ name: b.name, library, bundled: has(b.name, marker) }).toEqual({ name: b.name, library, bundled: where });
    }
  }
});

describe('the credential chain of a Lambda bundle', () => {
  const ENV_NAMES = [
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_PROFILE',
    'AWS_CONTAINER_CREDENTIALS_FULL_URI',
    'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
    'AWS_EC2_METADATA_DISABLED',
    'AWS_CONFIG_FILE',
    'AWS_SHARED_CREDENTIALS_FILE',
  ];
  let saved: Record<string, string | undefined>;
  let probe: BuiltFunction;
  let full: BuiltFunction;
  beforeAll(async () => {
    saved = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
    const entry = path.join(tmp, 'src', 'credentials.ts');
    fs.mkdirSync(path.dirname(entry), { recursive: true });
    fs.writeFileSync(
      entry,
      `import { SQSClient } from '@aws-sdk/client-sqs';
       export const handler = () => new SQSClient({ region: 'us-east-1' }).config.credentials();`,
    );
    probe = (await buildFunctions({ outDir: path.join(tmp, 'probe'), entries: [{ name: 'probe', entry }] }))[0]!;
    full = (await buildFunctions({ outDir: path.join(tmp, 'full'), entries: [{ name: 'probe', entry }], lambdaCredentials: false }))[0]!;
  }, 120_000);
  afterEach(() => {
    for (const name of ENV_NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
  const credentials = (file: string) => {
    jest.resetModules();
    return (require(file) as { handler: () => Promise<{ accessKeyId: string; sessionToken?: string }> }).handler();
  };

  test('reads the credentials Lambda puts in the environment', async () => {
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIDLAMBDA', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' });
    delete process.env.AWS_PROFILE;
    await expect(credentials(probe.file)).resolves.toMatchObject({ accessKeyId: 'AKIDLAMBDA', sessionToken: 'token' });
  });

  test("without them: every other source is absent, and the chain ends with the SDK's own error", async () => {
    for (const name of ENV_NAMES) delete process.env[name];
    // No shared files either way (a developer's ~/.aws must not answer), no metadata endpoint.
    Object.assign(process.env, {
      AWS_CONFIG_FILE: path.join(tmp, 'none'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(tmp, 'none'),
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    await expect(credentials(probe.file)).rejects.toThrow(/Could not load credentials from any providers/);
  });

  test("the other sources and the STS, SSO and sign-in clients they use are not in it (they are in a full build: the SMTP relay's)", () => {
    const lambda = fs.readFileSync(probe.file, 'utf8');
    const relay = fs.readFileSync(full.file, 'utf8');
    for (const marker of ['"STSClient"', '"SSOClient"', 'security-credentials', 'credential_process']) {
      expect({ marker, lambda: lambda.includes(marker) }).toEqual({ marker, lambda: false });
      expect({ marker, relay: relay.includes(marker) }).toEqual({ marker, relay: true });
    }
    expect(lambda).toContain('credentials are not part of a Lambda bundle');
    expect(probe.bytes).toBeLessThan(full.bytes - 80 * 1024);
    expect(LAMBDA_UNUSED_CREDENTIAL_SOURCES).not.toContain('@aws-sdk/credential-provider-env');
  });
});

test("the SMTP relay (a container: its credentials come from the task role's endpoint) keeps the whole credential chain", async () => {
  const relay = await buildSmtpRelay({ outDir: path.join(tmp, 'relay') });
  const bundle = fs.readFileSync(relay.file, 'utf8');
  // The container provider (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI) and the instance metadata one.
  for (const marker of ['AWS_CONTAINER_AUTHORIZATION_TOKEN', 'security-credentials'])
    expect({ marker, relay: bundle.includes(marker) }).toEqual({ marker, relay: true });
  expect(bundle).not.toContain('credentials are not part of a Lambda bundle');
}, 120_000);

test("nodemailer's extension table is ours in the bundles that compose mail (it kept the send worker over 1 MiB)", () => {
  const sendWorker = code('send-email');
  // An entry only nodemailer's ~2,000-line table has, and one of ours.
  expect(sendWorker).not.toContain('application/vnd.handheld-entertainment+xml');
  expect(sendWorker).toContain('application/pkcs7-signature');
});
