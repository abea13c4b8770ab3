/** DKIM keys: generation (timed), TXT value, selectors. */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { DKIM_KEY_BITS, dkimTxtValue, generateDkimKey, isValidSelector, newSelector } from '#shared/lib/dkim/keys';

test('generates a 2048-bit RSA pair: PKCS#8 PEM private key, base64 SPKI DER public key of that private key', async () => {
  const key = await generateDkimKey();
  expect(key.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
  const privateKey = createPrivateKey(key.privateKeyPem);
  expect(privateKey.asymmetricKeyType).toBe('rsa');
  expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(DKIM_KEY_BITS);

  expect(key.publicKeyBase64).toMatch(/^[A-Za-z0-9+/]+=*$/);
  const publicKey = createPublicKey({ key: Buffer.from(key.publicKeyBase64, 'base64'), format: 'der', type: 'spki' });
  expect(publicKey.export({ type: 'spki', format: 'der' })).toEqual(createPublicKey(privateKey).export({ type: 'spki', format: 'der' }));
  expect(key.publicKeyBase64).toHaveLength(392); // 294 DER bytes
  expect(key.privateKeyPem.length).toBeLessThan(1800);
});

test('every generated key is different', async () => {
  const [a, b] = await Promise.all([generateDkimKey(), generateDkimKey()]);
  expect(a.publicKeyBase64).not.toBe(b.publicKeyBase64);
});

test('TXT value', () => {
  expect(dkimTxtValue('MIIBIjAN')).toBe('v=DKIM1; k=rsa; p=MIIBIjAN');
});

describe('selectors', () => {
  test('svc + UTC yymm + 6 random characters of [a-z2-7]', () => {
    expect(newSelector(new Date('2026-11-21T09:00:00Z'))).toMatch(/^svc2611[a-z2-7]{6}$/);
    expect(newSelector(new Date('2030-01-01T00:30:00+01:00'))).toMatch(/^svc2912[a-z2-7]{6}$/); // UTC month
    expect(newSelector(new Date('2105-03-01T00:00:00Z'))).toMatch(/^svc0503[a-z2-7]{6}$/);
  });

  test('is a valid DNS label and differs each time', () => {
    const selectors = Array.from({ length: 200 }, () => newSelector(new Date()));
    for (const selector of selectors) {
      expect(isValidSelector(selector)).toBe(true);
      expect(selector).toMatch(/^[a-z][a-z0-9]{0,62}$/);
    }
    expect(new Set(selectors).size).toBe(selectors.length);
  });

  test('label validation', () => {
    for (const ok of ['a', 's1', 'svc2611abcdef', 'google', 'k1-2', 'x'.repeat(63)]) expect(isValidSelector(ok)).toBe(true);
    for (const bad of ['', '-a', 'a-', 'a.b', 'a_b', 'a b', 'x'.repeat(64), 'sél']) expect(isValidSelector(bad)).toBe(false);
  });
});
