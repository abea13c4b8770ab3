/**
 * Picks the SecretBox from the environment: KMS when SECRETS_KEY_ID is set (AWS, LocalStack), else the
 * local key file when LOCAL_SECRETS_KEY_FILE is set (the embedded cloud). Neither is a configuration
 * error: stored secrets must never fall back to plaintext.
 */
import { ENV, type Config } from '../config';
import { createKmsClient } from '../aws/kms-client';
import { KmsSecretBox } from '../aws/kms-secret-box';
import { LocalSecretBox } from './local-secret-box';
import type { SecretBox } from './secret-box';

export function secretBoxFromEnv(env: NodeJS.ProcessEnv, config: Pick<Config, 'region'>): SecretBox {
  const keyId = env[ENV.secretsKeyId];
  if (keyId) return new KmsSecretBox(createKmsClient(config), keyId);
  const keyFile = env[ENV.localSecretsKeyFile];
  if (keyFile) return new LocalSecretBox(keyFile);
  throw new Error(
    `Missing configuration: set ${ENV.secretsKeyId} (the KMS key that encrypts stored secrets; CDK sets it for functions granted the secrets key) or ${ENV.localSecretsKeyFile} (a local key file, on the embedded cloud)`,
  );
}
