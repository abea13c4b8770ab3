/**
 * The local SES's BYODKIM signature (localstack/emulators/ses/dkim-signing.ts) verifies whatever the clock does
 * while it signs: mailauth, left to read the time itself, wrote t= twice (the header it hashed and the header it
 * returned) and a message signed across a half second carried a signature over another t= value.
 */
import { dkimTxtValue, generateDkimKey } from '#shared/lib/dkim/keys';
import { signWithByodkim } from '#localstack/emulators/ses/dkim-signing';
import { verifyDkim } from '#test/support/mailauth-dkim';
import { verifySignatures } from '#shared/lib/dkim/verify';

const DOMAIN = 'byodkim.example.test';
const SELECTOR = 'byo1';
const raw = Buffer.from(
  `From: Sender <hello@${DOMAIN}>\r\nTo: someone@receiver.test\r\nSubject: Signed\r\nDate: Sat, 21 Nov 2026 09:00:00 +0000\r\nMessage-ID: <m1@${DOMAIN}>\r\n\r\nHello\r\n`,
  'latin1',
);

test('a message signed while the clock moves on by 600 ms a read verifies in mailauth and in our verifier', async () => {
  const key = await generateDkimKey();
  const store = {
    getIdentity: (name: string) =>
      name === DOMAIN ? ({ dkim: { origin: 'EXTERNAL', selector: SELECTOR, privateKeyPem: key.privateKeyPem } } as never) : undefined,
  };
  let now = Math.floor(Date.now() / 1000) * 1000 + 400;
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => (now += 600));
  let signed: Buffer;
  try {
    signed = await signWithByodkim(store, raw, `hello@${DOMAIN}`);
  } finally {
    clock.mockRestore();
  }
  expect(signed.toString('latin1')).toMatch(/^DKIM-Signature: .*\bt=\d+;/s);
  const resolve = async (name: string) =>
    name === `${SELECTOR}._domainkey.${DOMAIN}`
      ? [[dkimTxtValue(key.publicKeyBase64)]]
      : Promise.reject(Object.assign(new Error(name), { code: 'ENOTFOUND' }));
  expect((await verifyDkim(signed, resolve))[0]).toMatchObject({ status: 'pass', domain: DOMAIN });
  expect((await verifySignatures(signed, resolve))[0]).toMatchObject({ status: 'pass', domain: DOMAIN });
});
