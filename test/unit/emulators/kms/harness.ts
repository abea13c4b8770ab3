/** Test harness: the real KMS emulator, in process, with the official SDK client pointed at it. */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { CreateAliasCommand, CreateKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startKmsEmulator, type KmsEmulator } from '#localstack/emulators/kms';

export const region = 'eu-west-1';
export const accountId = '123456789012';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export interface Running {
  emulator: KmsEmulator;
  kms: KMSClient;
  stop(): Promise<void>;
}

/** Starts an emulator (in memory unless `dataDir`) and a client for it. */
export async function startKms(dataDir?: string): Promise<Running> {
  const emulator = await startKmsEmulator({ dataDir, region, accountId });
  const kms = new KMSClient({ endpoint: emulator.url, region, credentials, maxAttempts: 1 });
  return {
    emulator,
    kms,
    async stop() {
      kms.destroy();
      await emulator.stop();
    },
  };
}

/** Creates a symmetric key, with an alias when given; returns its id and ARN. */
export async function createKey(kms: KMSClient, alias?: string): Promise<{ keyId: string; arn: string }> {
  const { KeyMetadata } = await kms.send(new CreateKeyCommand({ Description: 'test key' }));
  if (alias) await kms.send(new CreateAliasCommand({ AliasName: alias, TargetKeyId: KeyMetadata!.KeyId }));
  return { keyId: KeyMetadata!.KeyId!, arn: KeyMetadata!.Arn! };
}

export { errorOf } from '#test/support/error-of';

/** A temp directory removed by the returned cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kms-emulator-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
