/**
 * KMS emulator for the embedded local cloud, so that functions deployed from the CDK template (whose
 * environment has SECRETS_KEY_ID = the key's ARN) seal and open secrets through the product's real KMS
 * path (shared/adapters/aws/kms-secret-box.ts) with the unmodified `@aws-sdk/client-kms`.
 *
 * Speaks AWS JSON 1.1 (`X-Amz-Target: TrentService.<Operation>`): symmetric keys with their key policy,
 * aliases, rotation status, Encrypt/Decrypt/GenerateDataKey/ReEncrypt with real AES-256-GCM and the
 * encryption context bound to the ciphertext. State (key material included) lives in `<dataDir>/kms.json`
 * (mode 0600), or in memory only. See docs/local-cloud/kms.md for what is emulated and what is not.
 *
 * Besides the API, the started emulator answers the local cloud's IAM evaluator in process: the key
 * policy of a key (a resource policy), the key ARN a key id or alias names, and, through
 * `keyIdOfCiphertext`, the key a Decrypt will use.
 */
import { serveKms } from './server';
import { openKmsState, type KmsEmulatorOptions } from './state';

export { keyIdOfCiphertext } from './ciphertext';
export type { KmsEmulatorOptions } from './state';

export interface KmsEmulator {
  url: string; // e.g. http://127.0.0.1:45678, for the SDK's `endpoint` or AWS_ENDPOINT_URL_KMS
  port: number;
  region: string;
  accountId: string;
  /** The key policy document of a key (key ARN or key id), exactly as stored; undefined for no such key. */
  keyPolicyOf(keyArn: string): string | undefined;
  /** The key ARN that a key id, key ARN, alias name (`alias/x`) or alias ARN names here; undefined if none. */
  resolveKeyArn(keyIdOrAlias: string): string | undefined;
  /** Number of keys (for health and tests). */
  keyCount(): number;
  /** Closes the server and waits for pending writes. Idempotent. */
  stop(): Promise<void>;
}

export async function startKmsEmulator(opts: KmsEmulatorOptions = {}): Promise<KmsEmulator> {
  const state = await openKmsState(opts);
  const { store, keys: resolver, log } = state;
  const { region, accountId } = resolver;
  const server = await serveKms({ port: opts.port, host: opts.host }, state);
  log(`kms: listening on ${server.url}${opts.dataDir ? ` (data in ${opts.dataDir})` : ' (in memory)'}`);

  let stopping: Promise<void> | undefined;
  return {
    url: server.url,
    port: Number(new URL(server.url).port),
    region,
    accountId,
    keyPolicyOf: (keyArn) => {
      const ref = resolver.parse(keyArn);
      return ref.kind === 'key' ? store.key(ref.keyId)?.Policy : undefined;
    },
    resolveKeyArn: (keyIdOrAlias) => resolver.tryKeyArn(keyIdOrAlias),
    keyCount: () => store.keyCount(),
    stop: () =>
      (stopping ??= (async () => {
        await server.stop();
        await store.flush();
      })()),
  };
}
