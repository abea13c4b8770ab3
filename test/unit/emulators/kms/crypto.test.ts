/**
 * Encrypt, Decrypt, GenerateDataKey and ReEncrypt against the real emulator with the official SDK: real
 * AES-GCM, the encryption context bound to the ciphertext, the key carried in the blob, and KMS's errors
 * as the SDK names them.
 */
import {
  DecryptCommand,
  DisableKeyCommand,
  EnableKeyCommand,
  EncryptCommand,
  GenerateDataKeyCommand,
  GenerateDataKeyWithoutPlaintextCommand,
  ReEncryptCommand,
} from '@aws-sdk/client-kms';
import { keyIdOfCiphertext } from '#localstack/emulators/kms';
import { createKey, errorOf, startKms, type Running } from './harness';

let running: Running;
beforeAll(async () => {
  running = await startKms();
});
afterAll(() => running.stop());

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const text = (b: Uint8Array | undefined) => Buffer.from(b!).toString('utf8');
const CONTEXT = { purpose: 'dkim', domain_id: 'dom_1' };

test('Encrypt then Decrypt round-trips; the answer names the key ARN and SYMMETRIC_DEFAULT; the blob is not the plaintext', async () => {
  const { kms } = running;
  const { arn } = await createKey(kms);
  const enc = await kms.send(new EncryptCommand({ KeyId: arn, Plaintext: bytes('secret value'), EncryptionContext: CONTEXT }));
  expect(enc.KeyId).toBe(arn);
  expect(enc.EncryptionAlgorithm).toBe('SYMMETRIC_DEFAULT');
  expect(Buffer.from(enc.CiphertextBlob!).includes(Buffer.from('secret value'))).toBe(false);
  const dec = await kms.send(new DecryptCommand({ KeyId: arn, CiphertextBlob: enc.CiphertextBlob, EncryptionContext: CONTEXT }));
  expect(text(dec.Plaintext)).toBe('secret value');
  expect(dec.KeyId).toBe(arn);
  // Two encryptions of the same plaintext differ (random nonce).
  const again = await kms.send(new EncryptCommand({ KeyId: arn, Plaintext: bytes('secret value'), EncryptionContext: CONTEXT }));
  expect(Buffer.from(again.CiphertextBlob!).equals(Buffer.from(enc.CiphertextBlob!))).toBe(false);
});

test('Decrypt without KeyId finds the key from the blob; keyIdOfCiphertext reads it', async () => {
  const { kms } = running;
  const { keyId, arn } = await createKey(kms);
  const { CiphertextBlob } = await kms.send(new EncryptCommand({ KeyId: keyId, Plaintext: bytes('x'), EncryptionContext: CONTEXT }));
  expect(keyIdOfCiphertext(CiphertextBlob!)).toBe(keyId);
  const dec = await kms.send(new DecryptCommand({ CiphertextBlob, EncryptionContext: CONTEXT }));
  expect(dec.KeyId).toBe(arn);
  expect(text(dec.Plaintext)).toBe('x');
  expect(keyIdOfCiphertext(new Uint8Array(10))).toBeUndefined();
});

test('the context must match exactly (order free, case-sensitive, no pair more or less): else InvalidCiphertextException', async () => {
  const { kms } = running;
  const { arn } = await createKey(kms);
  const { CiphertextBlob } = await kms.send(
    new EncryptCommand({ KeyId: arn, Plaintext: bytes('p'), EncryptionContext: { a: '1', b: '2' } }),
  );
  const open = (EncryptionContext?: Record<string, string>) => kms.send(new DecryptCommand({ CiphertextBlob, EncryptionContext }));
  expect(text((await open({ b: '2', a: '1' })).Plaintext)).toBe('p');
  const others: (Record<string, string> | undefined)[] = [
    { a: '1', b: '3' },
    { a: '1', B: '2' },
    { a: '1' },
    { a: '1', b: '2', c: '3' },
    undefined,
  ];
  for (const other of others) {
    const err = await errorOf(() => open(other));
    expect(err.name).toBe('InvalidCiphertextException');
    expect(err.$metadata?.httpStatusCode).toBe(400);
  }
  // No context at encryption is the empty context at decryption.
  const plain = await kms.send(new EncryptCommand({ KeyId: arn, Plaintext: bytes('q') }));
  expect(text((await kms.send(new DecryptCommand({ CiphertextBlob: plain.CiphertextBlob, EncryptionContext: {} }))).Plaintext)).toBe('q');
});

test('an altered blob (any byte) is InvalidCiphertextException; garbage too', async () => {
  const { kms } = running;
  const { arn } = await createKey(kms);
  const { CiphertextBlob } = await kms.send(new EncryptCommand({ KeyId: arn, Plaintext: bytes('payload'), EncryptionContext: CONTEXT }));
  for (const at of [20, 30, CiphertextBlob!.length - 1]) {
    const altered = Buffer.from(CiphertextBlob!);
    altered[at] = altered[at]! ^ 0x01;
    expect((await errorOf(() => kms.send(new DecryptCommand({ CiphertextBlob: altered, EncryptionContext: CONTEXT })))).name).toBe(
      'InvalidCiphertextException',
    );
  }
  expect((await errorOf(() => kms.send(new DecryptCommand({ CiphertextBlob: bytes('not a ciphertext') })))).name).toBe(
    'InvalidCiphertextException',
  );
});

test('Decrypt naming another key: IncorrectKeyException; an unknown key: NotFoundException', async () => {
  const { kms } = running;
  const a = await createKey(kms);
  const b = await createKey(kms, 'alias/crypto-other');
  const { CiphertextBlob } = await kms.send(new EncryptCommand({ KeyId: a.arn, Plaintext: bytes('p'), EncryptionContext: CONTEXT }));
  for (const wrong of [b.arn, b.keyId, 'alias/crypto-other']) {
    const err = await errorOf(() => kms.send(new DecryptCommand({ KeyId: wrong, CiphertextBlob, EncryptionContext: CONTEXT })));
    expect(err.name).toBe('IncorrectKeyException');
  }
  const missing = await errorOf(() => kms.send(new DecryptCommand({ KeyId: 'alias/none', CiphertextBlob, EncryptionContext: CONTEXT })));
  expect(missing.name).toBe('NotFoundException');
});

test('a disabled key refuses Encrypt and Decrypt with DisabledException until enabled again', async () => {
  const { kms } = running;
  const { arn } = await createKey(kms);
  const { CiphertextBlob } = await kms.send(new EncryptCommand({ KeyId: arn, Plaintext: bytes('p'), EncryptionContext: CONTEXT }));
  await kms.send(new DisableKeyCommand({ KeyId: arn }));
  expect((await errorOf(() => kms.send(new EncryptCommand({ KeyId: arn, Plaintext: bytes('p') })))).name).toBe('DisabledException');
  expect((await errorOf(() => kms.send(new DecryptCommand({ CiphertextBlob, EncryptionContext: CONTEXT })))).name).toBe(
    'DisabledException',
  );
  await kms.send(new EnableKeyCommand({ KeyId: arn }));
  expect(text((await kms.send(new DecryptCommand({ CiphertextBlob, EncryptionContext: CONTEXT }))).Plaintext)).toBe('p');
});

test('Plaintext of 1..4096 bytes: 4096 passes, 4097 and 0 are ValidationException in AWS words', async () => {
  const { kms } = running;
  const { arn } = await createKey(kms);
  const max = new Uint8Array(4096).fill(7);
  const { CiphertextBlob } = await kms.send(new EncryptCommand({ KeyId: arn, Plaintext: max }));
  expect(Buffer.from((await kms.send(new DecryptCommand({ CiphertextBlob }))).Plaintext!).equals(Buffer.from(max))).toBe(true);
  const over = await errorOf(() => kms.send(new EncryptCommand({ KeyId: arn, Plaintext: new Uint8Array(4097) })));
  expect(over.name).toBe('ValidationException');
  expect(over.message).toBe(
    "1 validation error detected: Value at 'plaintext' failed to satisfy constraint: Member must have length less than or equal to 4096",
  );
  const empty = await errorOf(() => kms.send(new EncryptCommand({ KeyId: arn, Plaintext: new Uint8Array(0) })));
  expect(empty.name).toBe('ValidationException');
});

test('Encrypt with an unknown key, alias or foreign ARN: NotFoundException; an asymmetric algorithm: InvalidKeyUsageException', async () => {
  const { kms } = running;
  const { keyId } = await createKey(kms);
  for (const KeyId of [
    '00000000-0000-4000-8000-000000000000',
    'alias/nothing',
    `arn:aws:kms:us-west-2:123456789012:key/${keyId}`,
    'not-a-key',
  ]) {
    const err = await errorOf(() => kms.send(new EncryptCommand({ KeyId, Plaintext: bytes('p') })));
    expect(err.name).toBe('NotFoundException');
  }
  const usage = await errorOf(() =>
    kms.send(new EncryptCommand({ KeyId: keyId, Plaintext: bytes('p'), EncryptionAlgorithm: 'RSAES_OAEP_SHA_256' })),
  );
  expect(usage.name).toBe('InvalidKeyUsageException');
});

test('GenerateDataKey: a key of the asked size whose blob decrypts to it; KeySpec xor NumberOfBytes', async () => {
  const { kms } = running;
  const { arn } = await createKey(kms);
  const dk = await kms.send(new GenerateDataKeyCommand({ KeyId: arn, KeySpec: 'AES_256', EncryptionContext: CONTEXT }));
  expect(dk.Plaintext).toHaveLength(32);
  const dec = await kms.send(new DecryptCommand({ CiphertextBlob: dk.CiphertextBlob, EncryptionContext: CONTEXT }));
  expect(Buffer.from(dec.Plaintext!).equals(Buffer.from(dk.Plaintext!))).toBe(true);
  expect((await kms.send(new GenerateDataKeyCommand({ KeyId: arn, NumberOfBytes: 64 }))).Plaintext).toHaveLength(64);
  const without = await kms.send(new GenerateDataKeyWithoutPlaintextCommand({ KeyId: arn, KeySpec: 'AES_128' }));
  expect(Object.keys(without)).not.toContain('Plaintext');
  expect((await kms.send(new DecryptCommand({ CiphertextBlob: without.CiphertextBlob }))).Plaintext).toHaveLength(16);
  expect((await errorOf(() => kms.send(new GenerateDataKeyCommand({ KeyId: arn })))).name).toBe('ValidationException');
  expect((await errorOf(() => kms.send(new GenerateDataKeyCommand({ KeyId: arn, KeySpec: 'AES_256', NumberOfBytes: 32 })))).name).toBe(
    'ValidationException',
  );
  expect((await errorOf(() => kms.send(new GenerateDataKeyCommand({ KeyId: arn, NumberOfBytes: 1025 })))).name).toBe('ValidationException');
});

test('ReEncrypt moves a ciphertext to another key and context', async () => {
  const { kms } = running;
  const a = await createKey(kms);
  const b = await createKey(kms);
  const { CiphertextBlob } = await kms.send(new EncryptCommand({ KeyId: a.arn, Plaintext: bytes('moved'), EncryptionContext: { v: '1' } }));
  const re = await kms.send(
    new ReEncryptCommand({
      CiphertextBlob,
      SourceEncryptionContext: { v: '1' },
      DestinationKeyId: b.keyId,
      DestinationEncryptionContext: { v: '2' },
    }),
  );
  expect(re.SourceKeyId).toBe(a.arn);
  expect(re.KeyId).toBe(b.arn);
  expect(keyIdOfCiphertext(re.CiphertextBlob!)).toBe(b.keyId);
  expect(text((await kms.send(new DecryptCommand({ CiphertextBlob: re.CiphertextBlob, EncryptionContext: { v: '2' } }))).Plaintext)).toBe(
    'moved',
  );
  const wrongSource = await errorOf(() =>
    kms.send(new ReEncryptCommand({ CiphertextBlob, SourceEncryptionContext: { v: 'x' }, DestinationKeyId: b.arn })),
  );
  expect(wrongSource.name).toBe('InvalidCiphertextException');
});

test('DryRun: DryRunOperationException after the checks, nothing encrypted', async () => {
  const { kms } = running;
  const { arn } = await createKey(kms);
  expect((await errorOf(() => kms.send(new EncryptCommand({ KeyId: arn, Plaintext: bytes('p'), DryRun: true })))).name).toBe(
    'DryRunOperationException',
  );
  expect((await errorOf(() => kms.send(new EncryptCommand({ KeyId: 'alias/none', Plaintext: bytes('p'), DryRun: true })))).name).toBe(
    'NotFoundException',
  );
});
