/**
 * Picks the SecretBox from the environment:
 * - KMS when SECRETS_KEY_ID is set (AWS, LocalStack, and the embedded cloud, which emulates KMS);
 * - on the embedded cloud, which also sets LOCAL_SECRETS_KEY_FILE, KMS that still opens the `v1:local:`
 *   secrets its data folder holds from before it had KMS, with that key file (../adapters/secrets/migrating-secret-box.ts);
 *   new secrets are sealed with KMS (`v1:kms:`);
 * - the local key file alone when only LOCAL_SECRETS_KEY_FILE is set.
 * Neither is a configuration error: stored secrets must never fall back to plaintext.
 */
import { ENV, type Config } from '../config/config';
import { createKmsClient } from '../adapters/aws/kms-client';
import { KmsSecretBox } from '../adapters/aws/kms-secret-box';
import { LocalSecretBox } from '../adapters/secrets/local-secret-box';
import { migratingSecretBox } from '../adapters/secrets/migrating-secret-box';
import type { SecretBox } from '../ports/secret-box';

export function secretBoxFromEnv(env: NodeJS.ProcessEnv, config: Pick<Config, 'region'>): SecretBox {
  const keyId = env[ENV.secretsKeyId];
  const keyFile = env[ENV.localSecretsKeyFile];
  if (keyId) {
    const kms = new KmsSecretBox(createKmsClient(config), keyId);
    return keyFile ? migratingSecretBox(kms, { scheme: 'local', box: new LocalSecretBox(keyFile) }) : kms;
  }
  if (keyFile) return new LocalSecretBox(keyFile);
  throw new Error(
    `Missing configuration: set ${ENV.secretsKeyId} (the KMS key that encrypts stored secrets; CDK sets it for functions granted the secrets key) or ${ENV.localSecretsKeyFile} (a local key file, on the embedded cloud)`,
  );
}
