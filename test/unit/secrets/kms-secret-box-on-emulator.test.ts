/**
 * The product's KMS path (secret-box-from-environment.ts -> kms-client.ts -> KmsSecretBox) against the local KMS
 * emulator, reached as on LocalStack through AWS_ENDPOINT_URL_KMS: secrets seal and open, a wrong context
 * or key is the product's SecretBoxError, aliases work, and with LOCAL_SECRETS_KEY_FILE too (the
 * embedded cloud) the `v1:local:` secrets of an existing data folder still open while new ones are KMS.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KmsSecretBox } from '#shared/adapters/aws/kms-secret-box';
import { secretBoxFromEnv } from '#shared/services/secret-box-from-environment';
import { LocalSecretBox } from '#shared/adapters/secrets/local-secret-box';
import { SecretBoxError } from '#shared/ports/secret-box';
import { createKey, region, startKms, type Running } from '../emulators/kms/harness';

const CONTEXT = { purpose: 'dkim', domain_id: 'dom_01' };
const saved = { ...process.env };
let running: Running;
let dir: string;

beforeAll(async () => {
  running = await startKms();
  // The SDK's own endpoint and credential variables, as the local cloud and LocalStack set them.
  Object.assign(process.env, { AWS_ENDPOINT_URL_KMS: running.emulator.url, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kms-box-'));
});
afterAll(async () => {
  process.env = saved;
  fs.rmSync(dir, { recursive: true, force: true });
  await running.stop();
});

const boxFor = (env: NodeJS.ProcessEnv) => secretBoxFromEnv(env, { region });

test('SECRETS_KEY_ID alone: KmsSecretBox through the emulator; seal and open; the sealed string is v1:kms:', async () => {
  const { arn } = await createKey(running.kms);
  const box = boxFor({ SECRETS_KEY_ID: arn });
  expect(box).toBeInstanceOf(KmsSecretBox);
  const sealed = await box.seal('-----BEGIN PRIVATE KEY-----\nMIIE...', CONTEXT);
  expect(sealed).toMatch(/^v1:kms:[A-Za-z0-9+/]+={0,2}$/);
  expect(await box.open(sealed, { domain_id: 'dom_01', purpose: 'dkim' })).toBe('-----BEGIN PRIVATE KEY-----\nMIIE...');
});

test("another context, another key, an altered string: the product's SecretBoxError", async () => {
  const a = await createKey(running.kms);
  const b = await createKey(running.kms);
  const box = boxFor({ SECRETS_KEY_ID: a.arn });
  const sealed = await box.seal('webhook-secret', CONTEXT);
  await expect(box.open(sealed, { ...CONTEXT, domain_id: 'dom_02' })).rejects.toThrow(SecretBoxError);
  await expect(boxFor({ SECRETS_KEY_ID: b.arn }).open(sealed, CONTEXT)).rejects.toThrow(SecretBoxError);
  const payload = Buffer.from(sealed.slice('v1:kms:'.length), 'base64');
  payload[payload.length - 1] = payload[payload.length - 1]! ^ 0xff;
  await expect(box.open(`v1:kms:${payload.toString('base64')}`, CONTEXT)).rejects.toThrow(SecretBoxError);
});

test("the key named by its alias seals, and the key's ARN opens what the alias sealed", async () => {
  const { arn } = await createKey(running.kms, 'alias/mailservice-secrets-test');
  const sealed = await boxFor({ SECRETS_KEY_ID: 'alias/mailservice-secrets-test' }).seal('s', CONTEXT);
  expect(await boxFor({ SECRETS_KEY_ID: arn }).open(sealed, CONTEXT)).toBe('s');
});

test("a key KMS does not have is not the secret's fault: NotFoundException passes through, not SecretBoxError", async () => {
  const { arn } = await createKey(running.kms);
  const sealed = await boxFor({ SECRETS_KEY_ID: arn }).seal('s', CONTEXT);
  const box = boxFor({ SECRETS_KEY_ID: 'alias/never-created' });
  for (const attempt of [() => box.seal('s', CONTEXT), () => box.open(sealed, CONTEXT)]) {
    const err = await attempt().catch((e: unknown) => e as Error);
    expect(err).not.toBeInstanceOf(SecretBoxError);
    expect((err as Error).name).toBe('NotFoundException');
  }
});

test('with LOCAL_SECRETS_KEY_FILE too (the embedded cloud): seals with KMS, still opens v1:local: secrets of the key file', async () => {
  const { arn } = await createKey(running.kms);
  const keyFile = path.join(dir, 'secrets.key');
  const before = await new LocalSecretBox(keyFile).seal('sealed before KMS', CONTEXT);
  expect(before).toMatch(/^v1:local:/);

  const box = boxFor({ SECRETS_KEY_ID: arn, LOCAL_SECRETS_KEY_FILE: keyFile });
  expect(await box.open(before, CONTEXT)).toBe('sealed before KMS');
  const after = await box.seal('sealed with KMS', CONTEXT);
  expect(after).toMatch(/^v1:kms:/);
  expect(await box.open(after, CONTEXT)).toBe('sealed with KMS');
  // Each scheme keeps its context binding.
  await expect(box.open(before, { ...CONTEXT, domain_id: 'other' })).rejects.toThrow(SecretBoxError);
  await expect(box.open(after, { ...CONTEXT, domain_id: 'other' })).rejects.toThrow(SecretBoxError);
  // A KMS-only deployment does not open local secrets.
  await expect(boxFor({ SECRETS_KEY_ID: arn }).open(before, CONTEXT)).rejects.toThrow(SecretBoxError);
});
