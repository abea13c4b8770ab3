/**
 * Persistence: with a dataDir, keys (their material included), policies, aliases and rotation survive a
 * restart, so ciphertexts made before it still decrypt; the file is readable by its owner only. Without a
 * dataDir the state dies with the emulator.
 */
import {
  DecryptCommand,
  DescribeKeyCommand,
  EnableKeyRotationCommand,
  EncryptCommand,
  GetKeyPolicyCommand,
  GetKeyRotationStatusCommand,
  PutKeyPolicyCommand,
} from '@aws-sdk/client-kms';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createKey, errorOf, startKms as startRunning, tempDir, type Running } from './harness';

const CONTEXT = { purpose: 'webhook', webhook_id: 'wh_1' };
const started: Running[] = [];
const cleanups: (() => Promise<void>)[] = [];

/** Emulators and folders of a test are stopped and removed after it, pass or fail. */
async function startKms(dataDir?: string): Promise<Running> {
  const running = await startRunning(dataDir);
  started.push(running);
  return running;
}
async function folder(): Promise<string> {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  return dir;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.stop()));
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

test('a restart keeps keys, aliases, policies and rotation: old ciphertexts decrypt, by alias too', async () => {
  const dir = await folder();
  const first = await startKms(dir);
  const { keyId, arn } = await createKey(first.kms, 'alias/persisted');
  const policy = JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::123456789012:root' }, Action: 'kms:*', Resource: '*' }],
  });
  await first.kms.send(new PutKeyPolicyCommand({ KeyId: keyId, Policy: policy }));
  await first.kms.send(new EnableKeyRotationCommand({ KeyId: keyId }));
  const { CiphertextBlob } = await first.kms.send(
    new EncryptCommand({ KeyId: 'alias/persisted', Plaintext: Buffer.from('kept'), EncryptionContext: CONTEXT }),
  );
  await first.stop();

  const second = await startKms(dir);
  expect(second.emulator.keyCount()).toBe(1);
  expect((await second.kms.send(new DescribeKeyCommand({ KeyId: 'alias/persisted' }))).KeyMetadata!.Arn).toBe(arn);
  const dec = await second.kms.send(new DecryptCommand({ CiphertextBlob, EncryptionContext: CONTEXT }));
  expect(Buffer.from(dec.Plaintext!).toString()).toBe('kept');
  expect((await second.kms.send(new GetKeyPolicyCommand({ KeyId: arn }))).Policy).toBe(policy);
  expect(second.emulator.keyPolicyOf(arn)).toBe(policy);
  expect((await second.kms.send(new GetKeyRotationStatusCommand({ KeyId: arn }))).KeyRotationEnabled).toBe(true);
});

test('the state file holds key material: mode 0600; a change is on disk when its call answers (no stop needed)', async () => {
  const dir = await folder();
  const first = await startKms(dir);
  const { arn } = await createKey(first.kms);
  const { CiphertextBlob } = await first.kms.send(new EncryptCommand({ KeyId: arn, Plaintext: Buffer.from('durable') }));
  expect((await stat(path.join(dir, 'kms.json'))).mode & 0o777).toBe(0o600);
  // A second emulator on the same folder while the first never stopped (as after a SIGKILL).
  const second = await startKms(dir);
  expect(Buffer.from((await second.kms.send(new DecryptCommand({ CiphertextBlob }))).Plaintext!).toString()).toBe('durable');
});

test('without a dataDir the state is in memory only: a new emulator does not know the old keys', async () => {
  const first = await startKms();
  const { arn } = await createKey(first.kms);
  const { CiphertextBlob } = await first.kms.send(new EncryptCommand({ KeyId: arn, Plaintext: Buffer.from('gone') }));
  await first.stop();
  const second = await startKms();
  expect(second.emulator.keyCount()).toBe(0);
  expect((await errorOf(() => second.kms.send(new DecryptCommand({ CiphertextBlob })))).name).toBe('InvalidCiphertextException');
});
