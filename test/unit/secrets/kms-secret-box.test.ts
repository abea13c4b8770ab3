/**
 * The KMS adapter against a stub client (KMS cannot be emulated here): the commands it sends, the
 * sealed format, and how KMS errors surface. Real KMS behaviour (context binding, key policy) is AWS's.
 */
import { DecryptCommand, EncryptCommand } from '@aws-sdk/client-kms';
import { KMS_MAX_PLAINTEXT_BYTES, KmsSecretBox } from '#shared/adapters/aws/kms-secret-box';
import { SecretBoxError } from '#shared/ports/secret-box';

const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const CONTEXT = { purpose: 'dkim', domain_id: 'dom_01' };

/** A fake KMS: "encrypts" by prefixing a marker, remembers each call, and checks the context like KMS. */
function fakeKms() {
  const calls: (EncryptCommand | DecryptCommand)[] = [];
  const contexts = new Map<string, string>();
  const send = jest.fn(async (command: EncryptCommand | DecryptCommand) => {
    calls.push(command);
    if (command instanceof EncryptCommand) {
      const blob = Buffer.concat([Buffer.from(`blob${contexts.size}:`), Buffer.from(command.input.Plaintext!).reverse()]);
      contexts.set(blob.toString('base64'), JSON.stringify(command.input.EncryptionContext));
      return { CiphertextBlob: new Uint8Array(blob), KeyId: KEY_ARN };
    }
    const blob = Buffer.from(command.input.CiphertextBlob!);
    if (contexts.get(blob.toString('base64')) !== JSON.stringify(command.input.EncryptionContext)) {
      throw Object.assign(new Error('InvalidCiphertextException'), { name: 'InvalidCiphertextException' });
    }
    return { Plaintext: new Uint8Array(blob.subarray(blob.indexOf(':') + 1).reverse()), KeyId: KEY_ARN };
  });
  return { send, calls };
}

test('seal: Encrypt with the key and the context (sorted) as EncryptionContext; v1:kms:<base64 ciphertext blob>', async () => {
  const kms = fakeKms();
  const sealed = await new KmsSecretBox(kms as never, KEY_ARN).seal('secret', { domain_id: 'dom_01', purpose: 'dkim' });
  expect(sealed).toMatch(/^v1:kms:[A-Za-z0-9+/]+={0,2}$/);
  const encrypt = kms.calls[0] as EncryptCommand;
  expect(encrypt).toBeInstanceOf(EncryptCommand);
  expect(encrypt.input.KeyId).toBe(KEY_ARN);
  expect(Buffer.from(encrypt.input.Plaintext!).toString()).toBe('secret');
  expect(Object.keys(encrypt.input.EncryptionContext!)).toEqual(['domain_id', 'purpose']);
  expect(Buffer.from(sealed.slice('v1:kms:'.length), 'base64').toString('latin1')).toMatch(/^blob0:/);
});

test('open: Decrypt naming the key, with the same context; round trip', async () => {
  const kms = fakeKms();
  const box = new KmsSecretBox(kms as never, KEY_ARN);
  const sealed = await box.seal('-----BEGIN PRIVATE KEY-----', CONTEXT);
  expect(await box.open(sealed, CONTEXT)).toBe('-----BEGIN PRIVATE KEY-----');
  const decrypt = kms.calls[1] as DecryptCommand;
  expect(decrypt).toBeInstanceOf(DecryptCommand);
  expect(decrypt.input).toMatchObject({ KeyId: KEY_ARN, EncryptionContext: CONTEXT });
});

test('a context KMS rejects is a SecretBoxError; other KMS errors pass through', async () => {
  const kms = fakeKms();
  const box = new KmsSecretBox(kms as never, KEY_ARN);
  const sealed = await box.seal('secret', CONTEXT);
  await expect(box.open(sealed, { ...CONTEXT, domain_id: 'dom_02' })).rejects.toThrow(SecretBoxError);

  kms.send.mockRejectedValueOnce(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
  const error = await box.open(sealed, CONTEXT).catch((e: unknown) => e);
  expect(error).not.toBeInstanceOf(SecretBoxError);
  expect((error as Error).name).toBe('ThrottlingException');
});

test('local secrets and malformed strings never reach KMS', async () => {
  const kms = fakeKms();
  const box = new KmsSecretBox(kms as never, KEY_ARN);
  await expect(box.open('v1:local:AQID', CONTEXT)).rejects.toThrow('Sealed with "local", this box opens "kms" secrets');
  await expect(box.open('garbage', CONTEXT)).rejects.toThrow(SecretBoxError);
  expect(kms.send).not.toHaveBeenCalled();
});

test('secrets over the KMS Encrypt limit and empty contexts are refused before calling KMS', async () => {
  const kms = fakeKms();
  const box = new KmsSecretBox(kms as never, KEY_ARN);
  await expect(box.seal('x'.repeat(KMS_MAX_PLAINTEXT_BYTES + 1), CONTEXT)).rejects.toThrow(/over the 4096-byte limit/);
  await expect(box.seal('secret', {})).rejects.toThrow(/non-empty context/);
  expect(kms.send).not.toHaveBeenCalled();
  // A 4096-bit DKIM key would still fit.
  await expect(box.seal('x'.repeat(3300), CONTEXT)).resolves.toMatch(/^v1:kms:/);
});
