/**
 * The local SES's BYODKIM signature (localstack/emulators/ses/dkim-signing.ts) verifies whatever the clock does
 * while it signs: mailauth, left to read the time itself, wrote t= twice (the header it hashed and the header it
 * returned) and a message signed across a half second carried a signature over another t= value. A thousand
 * varied messages signed on the real clock each verify in the product's verifier (issue 51 item 6: it failed with
 * the time read twice, in each of two runs).
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

/** A small seeded generator (mulberry32): the same messages on every run, the seed in a failure's message. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A message of varied shape: fields in any order and case, folded, padded, encoded words, bodies with trailing space and blank lines. */
function variedMessage(random: () => number, n: number): Buffer {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const space = () => pick([' ', '  ', '\t', ' \t ']);
  const fold = (value: string) => (random() < 0.3 ? value.replace(/ /, `\r\n${pick([' ', '\t', '   '])}`) : value);
  const name = (field: string) => pick([field, field.toLowerCase(), field.toUpperCase()]);
  const fields = [
    `${name('From')}:${space()}${pick(['Sender', '"Sender, Inc."', '=?UTF-8?B?U8OpbmRlcg==?='])} <hello@${DOMAIN}>`,
    `${name('To')}:${space()}${fold(Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => `r${n}-${i}@receiver.test`).join(', '))}`,
    `${name('Subject')}:${space()}${fold(pick(['Hello', `Your receipt #${n}`, '=?UTF-8?Q?R=C3=A9sum=C3=A9?= of the week', 'a'.repeat(120)]))}${pick(['', ' ', '\t'])}`,
    `${name('Date')}: Sat, 21 Nov 2026 09:00:${String(n % 60).padStart(2, '0')} +0000`,
    `${name('Message-ID')}: <m${n}@${DOMAIN}>`,
    `${name('MIME-Version')}: 1.0`,
    `${name('Content-Type')}:${space()}${fold(pick(['text/plain; charset=utf-8', 'text/html; charset="utf-8"', `multipart/alternative; boundary="b${n}"`]))}`,
  ];
  if (random() < 0.5) fields.push(`${name('Reply-To')}: reply${n}@${DOMAIN}`);
  if (random() < 0.5) {
    fields.push(`${name('List-Unsubscribe')}:${space()}${fold(`<https://links.${DOMAIN}/u/${n}>, <mailto:u${n}@${DOMAIN}>`)}`);
    fields.push(`${name('List-Unsubscribe-Post')}: List-Unsubscribe=One-Click`);
  }
  if (random() < 0.3) fields.push(`X-Unsigned-${n}: not in the signed list`);
  for (let i = fields.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [fields[i], fields[j]] = [fields[j]!, fields[i]!];
  }
  const lines = Array.from({ length: Math.floor(random() * 6) }, () =>
    pick(['Hello', 'Line with trailing space   ', '\tTabbed', 'Ünïcödé text', 'x'.repeat(200), '', '.leading dot']),
  );
  const body = lines.join('\r\n') + pick(['', '\r\n', '\r\n\r\n\r\n']);
  return Buffer.from(`${fields.join('\r\n')}\r\n\r\n${body}`, 'utf8');
}

test('a thousand varied messages, signed on the real clock, each verify in our verifier (independent of mailauth, which signs)', async () => {
  const key = await generateDkimKey();
  const store = {
    getIdentity: (name: string) =>
      name === DOMAIN ? ({ dkim: { origin: 'EXTERNAL', selector: SELECTOR, privateKeyPem: key.privateKeyPem } } as never) : undefined,
  };
  const record = [[dkimTxtValue(key.publicKeyBase64)]];
  const resolve = async (name: string) =>
    name === `${SELECTOR}._domainkey.${DOMAIN}` ? record : Promise.reject(Object.assign(new Error(name), { code: 'ENOTFOUND' }));
  const seed = 20261129;
  const random = seeded(seed);
  const failed: string[] = [];
  for (let n = 0; n < 1000; n++) {
    const signed = await signWithByodkim(store, variedMessage(random, n), `hello@${DOMAIN}`);
    const [result] = await verifySignatures(signed, resolve);
    if (result?.status !== 'pass') failed.push(`message ${n} (seed ${seed}): ${result?.status ?? 'no signature'}`);
  }
  expect(failed).toEqual([]);
}, 60_000);
