/**
 * SecretBox in AWS: KMS Encrypt/Decrypt with the context as EncryptionContext.
 * Sealed: `v1:kms:<base64 of the CiphertextBlob>`.
 *
 * Direct encryption, not envelope: KMS encrypts up to 4096 bytes of plaintext, and the secrets stored
 * are far below (a 2048-bit DKIM key in PKCS#8 PEM is ~1.7 KB, a webhook secret under 100 bytes).
 * Envelope encryption (GenerateDataKey + AES-GCM) would cost the same one KMS call per open, with more
 * code; larger secrets are refused here with a clear error rather than failing inside KMS.
 * Decrypt names the key, so a ciphertext of another key is refused. Thin on purpose: the sealed format is
 * tested with a stub client (test/unit/secrets/kms-secret-box.test.ts), KMS's behaviour against the local
 * KMS emulator (test/unit/secrets/kms-secret-box-on-emulator.test.ts).
 */
import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import { canonicalContext, formatSealed, parseSealed } from '../secrets/sealed-string';
import { SecretBoxError, type SecretBox } from '../../ports/secret-box';

export const KMS_MAX_PLAINTEXT_BYTES = 4096;

/** KMS errors meaning "this ciphertext does not open here", as opposed to KMS being unavailable. */
const NOT_OPENABLE = new Set(['InvalidCiphertextException', 'IncorrectKeyException', 'InvalidKeyUsageException']);

export class KmsSecretBox implements SecretBox {
  constructor(
    private readonly kms: Pick<KMSClient, 'send'>,
    /** Key ARN (SECRETS_KEY_ID), or its id or alias. */
    private readonly keyId: string,
  ) {}

  async seal(plaintext: string, context: Record<string, string>): Promise<string> {
    const bytes = Buffer.from(plaintext, 'utf8');
    if (bytes.length > KMS_MAX_PLAINTEXT_BYTES) {
      throw new SecretBoxError(`Secret of ${bytes.length} bytes is over the ${KMS_MAX_PLAINTEXT_BYTES}-byte limit of KMS Encrypt`);
    }
    const { CiphertextBlob } = await this.kms.send(
      new EncryptCommand({ KeyId: this.keyId, Plaintext: bytes, EncryptionContext: encryptionContext(context) }),
    );
    if (!CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext');
    return formatSealed('kms', Buffer.from(CiphertextBlob));
  }

  async open(sealed: string, context: Record<string, string>): Promise<string> {
    const ciphertext = parseSealed(sealed, 'kms');
    try {
      const { Plaintext } = await this.kms.send(
        new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: ciphertext, EncryptionContext: encryptionContext(context) }),
      );
      if (!Plaintext) throw new Error('KMS Decrypt returned no plaintext');
      return Buffer.from(Plaintext).toString('utf8');
    } catch (error) {
      if (NOT_OPENABLE.has((error as Error).name)) {
        throw new SecretBoxError('Sealed secret does not open: altered, sealed for another context, or with another key', { cause: error });
      }
      throw error; // throttling, network, permissions: not the secret's fault
    }
  }
}

function encryptionContext(context: Record<string, string>): Record<string, string> {
  return Object.fromEntries(canonicalContext(context));
}
