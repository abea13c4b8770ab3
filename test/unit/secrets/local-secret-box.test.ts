/** The embedded cloud's secret box: AES-256-GCM bound to its context, key in a 0600 file. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalSecretBox, ensureLocalKeyFile } from '#shared/adapters/secrets/local-secret-box';
import { SecretBoxError } from '#shared/ports/secret-box';

const PEM = `-----BEGIN PRIVATE KEY-----\n${'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'.repeat(50)}\n-----END PRIVATE KEY-----\n`;
const CONTEXT = { purpose: 'dkim', domain_id: 'dom_01' };

let dir: string;
let keyFile: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-box-'));
  keyFile = path.join(dir, 'nested', 'secrets.key');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('round trip', async () => {
  const box = new LocalSecretBox(keyFile);
  for (const plaintext of [PEM, 'whsec_abc', '', 'ünïcode ✓']) {
    expect(await box.open(await box.seal(plaintext, CONTEXT), CONTEXT)).toBe(plaintext);
  }
});

test('sealed strings are v1:local:<base64>, different each time, and never contain the plaintext', async () => {
  const box = new LocalSecretBox(keyFile);
  const secret = 'whsec_0123456789abcdef';
  const [a, b] = [await box.seal(secret, CONTEXT), await box.seal(secret, CONTEXT)];
  expect(a).toMatch(/^v1:local:[A-Za-z0-9+/]+={0,2}$/);
  expect(a).not.toBe(b);
  const sealedPem = await box.seal(PEM, CONTEXT);
  for (const sealed of [a, sealedPem]) {
    const decoded = Buffer.from(sealed.slice('v1:local:'.length), 'base64').toString('latin1');
    expect(sealed).not.toContain(secret);
    expect(decoded).not.toContain(secret);
    expect(decoded).not.toContain('PRIVATE KEY');
    expect(sealed).not.toContain('PRIVATE KEY');
  }
  // nonce 12 + ciphertext + tag 16
  expect(Buffer.from(a.slice('v1:local:'.length), 'base64')).toHaveLength(12 + secret.length + 16);
});

test('the context must match: another owner, another value, an extra or a missing entry', async () => {
  const box = new LocalSecretBox(keyFile);
  const sealed = await box.seal('secret', CONTEXT);
  const others: Record<string, string>[] = [
    { purpose: 'dkim', domain_id: 'dom_02' },
    { purpose: 'webhook', domain_id: 'dom_01' },
    { ...CONTEXT, extra: 'x' },
    { domain_id: 'dom_01' },
  ];
  for (const other of others) {
    await expect(box.open(sealed, other)).rejects.toThrow(SecretBoxError);
  }
  // Key order does not matter.
  expect(await box.open(sealed, { domain_id: 'dom_01', purpose: 'dkim' })).toBe('secret');
});

test('contexts that would serialise alike stay distinct', async () => {
  const box = new LocalSecretBox(keyFile);
  const sealed = await box.seal('secret', { a: 'b,c' });
  await expect(box.open(sealed, { 'a,b': 'c' })).rejects.toThrow(SecretBoxError);
  await expect(box.open(sealed, { a: 'b', c: '' })).rejects.toThrow(SecretBoxError);
});

test('an empty context is refused', async () => {
  const box = new LocalSecretBox(keyFile);
  await expect(box.seal('secret', {})).rejects.toThrow(/non-empty context/);
});

test('tampered ciphertext fails: any flipped bit, truncation, bad encoding', async () => {
  const box = new LocalSecretBox(keyFile);
  const sealed = await box.seal('a secret worth protecting', CONTEXT);
  const payload = Buffer.from(sealed.slice('v1:local:'.length), 'base64');
  for (const index of [0, 11, 12, payload.length - 17, payload.length - 1]) {
    const altered = Buffer.from(payload);
    altered[index]! ^= 0x01;
    await expect(box.open(`v1:local:${altered.toString('base64')}`, CONTEXT)).rejects.toThrow(SecretBoxError);
  }
  await expect(box.open(`v1:local:${payload.subarray(0, 20).toString('base64')}`, CONTEXT)).rejects.toThrow(SecretBoxError);
  await expect(box.open('v1:local:not base64!', CONTEXT)).rejects.toThrow(SecretBoxError);
  await expect(box.open('plaintext', CONTEXT)).rejects.toThrow('Not a sealed secret');
});

test('another scheme or version is refused by name', async () => {
  const box = new LocalSecretBox(keyFile);
  await expect(box.open('v1:kms:AQID', CONTEXT)).rejects.toThrow('Sealed with "kms", this box opens "local" secrets');
  await expect(box.open('v2:local:AQID', CONTEXT)).rejects.toThrow('Unsupported sealed secret version v2');
});

test('a box with another key file cannot open it', async () => {
  const sealed = await new LocalSecretBox(keyFile).seal('secret', CONTEXT);
  await expect(new LocalSecretBox(path.join(dir, 'other.key')).open(sealed, CONTEXT)).rejects.toThrow(SecretBoxError);
});

describe('key file', () => {
  test('created on first use: 32 random bytes, mode 0600, in a directory created 0700', async () => {
    expect(fs.existsSync(keyFile)).toBe(false);
    await new LocalSecretBox(keyFile).seal('x', CONTEXT);
    const stat = fs.statSync(keyFile);
    expect(stat.size).toBe(32);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(keyFile)).mode & 0o777).toBe(0o700);
  });

  test('ensureLocalKeyFile creates it once and reuses it; secrets survive a new box', async () => {
    const first = ensureLocalKeyFile(keyFile);
    expect(first).toHaveLength(32);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const sealed = await new LocalSecretBox(keyFile).seal('secret', CONTEXT);
    expect(ensureLocalKeyFile(keyFile)).toEqual(first);
    expect(fs.readFileSync(keyFile)).toEqual(first);
    expect(await new LocalSecretBox(keyFile).open(sealed, CONTEXT)).toBe('secret');
  });

  test('two key files differ', () => {
    expect(ensureLocalKeyFile(keyFile)).not.toEqual(ensureLocalKeyFile(path.join(dir, 'b.key')));
  });

  test('a key file of the wrong size is an error, never overwritten', () => {
    fs.mkdirSync(path.dirname(keyFile), { recursive: true });
    fs.writeFileSync(keyFile, 'short');
    expect(() => ensureLocalKeyFile(keyFile)).toThrow(/must hold exactly 32 bytes \(found 5\)/);
    expect(fs.readFileSync(keyFile, 'utf8')).toBe('short');
  });
});
