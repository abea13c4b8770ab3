/**
 * shared/lib/dkim/verify.ts (the domain check's signing probe) against mailauth as the oracle
 * (test/support/mailauth-dkim.ts) on random messages: signed by mailauth with a random canonicalization
 * (simple or relaxed, header and body) and sometimes a body length (l=), then changed as mail is in transit
 * or on purpose (blanks and folding, lines added at the end, a body or signed header changed, fields added),
 * and checked against the key, another key or none: the same result, reason included.
 *
 * Where mailauth is wrong, ours follows RFC 6376 and a test below says so (an empty l=).
 *
 * Seeded, so a run is repeatable: DKIM_PROPERTY_SEED=<n> draws other messages, DKIM_PROPERTY_RUNS=<n> more
 * or fewer of them (default 150).
 */
import fc from 'fast-check';
import { dkimSign } from 'mailauth/lib/dkim/sign';
import { dkimTxtValue, generateDkimKey, type DkimKey } from '#shared/lib/dkim/keys';
import { verifySignatures } from '#shared/lib/dkim/verify';
import { verifyDkim } from '../../support/mailauth-dkim';
import { DOMAIN, KEY_NAME, SELECTOR, txtResolver } from './helpers';

// signTime: mailauth's signer reads the clock twice when it is not given (the header it hashes and the one it
// returns, t= from Date.now() rounded, in each): across a half second they differ and the signature fails (1 in ~300).
const SIGN_TIME = new Date();
const SEED = Number(process.env.DKIM_PROPERTY_SEED ?? 20261125);
const RUNS = Number(process.env.DKIM_PROPERTY_RUNS ?? 150);

let key: DkimKey;
let otherKey: DkimKey;
beforeAll(async () => {
  [key, otherKey] = await Promise.all([generateDkimKey(), generateDkimKey()]);
});

const WORDS = ['Hello', 'with   spaces', 'tab\there', 'ünïcode', 'trailing  ', '', 'x'];
const line = fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }).map((words) => words.join(' '));

/** A message as latin1 text: some header fields (folded or not, 8-bit or not), a body of lines, CRLF or LF. */
const message = fc
  .record({
    subject: line,
    folded: fc.boolean(),
    extra: fc.array(fc.tuple(fc.constantFrom('X-Tag', 'Keywords', 'Comments'), line), { maxLength: 3 }),
    body: fc.array(line, { maxLength: 6 }),
    trailingEmpty: fc.integer({ min: 0, max: 3 }),
    lf: fc.boolean(),
  })
  .map(({ subject, folded, extra, body, trailingEmpty, lf }) => {
    const header = [
      `From: Sender <hello@${DOMAIN}>`,
      'To: someone@receiver.test',
      folded ? `Subject: ${subject}\r\n\t continued` : `Subject: ${subject}`,
      ...extra.map(([name, value]) => `${name}: ${value}`),
    ];
    const text = `${header.join('\r\n')}\r\n\r\n${[...body, ...Array.from({ length: trailingEmpty }, () => '')].join('\r\n')}\r\n`;
    return Buffer.from(lf ? text.replace(/\r\n/g, '\n') : text, 'utf8').toString('latin1');
  });

const signing = fc.record({
  header: fc.constantFrom('simple', 'relaxed'),
  body: fc.constantFrom('simple', 'relaxed'),
  maxBodyLength: fc.option(fc.integer({ min: 0, max: 40 }), { freq: 3 }),
});

/** What happens to the signed message (latin1 text) before it is checked. */
const transit = fc.constantFrom(
  (raw: string) => raw,
  (raw: string) => raw.replace(/^Subject: /m, 'Subject:    '),
  (raw: string) => raw.replace(/^(To:) (.*)$/m, '$1\r\n $2'),
  (raw: string) => raw.replace(/(\r?\n)$/, '  $1'),
  (raw: string) => `${raw}appended line\r\n`,
  (raw: string) => `${raw}\r\n\r\n`,
  (raw: string) => raw.replace(/(\r?\n\r?\n[\s\S]*?)e/, '$1E'),
  (raw: string) => raw.replace(/^Subject: .*$/m, 'Subject: changed'),
  (raw: string) => `Received: from relay.test\r\n${raw}`,
  (raw: string) => raw.replace(/(\r?\n)(\r?\n)/, `$1From: attacker@evil.test$1$2`),
);

const dns = fc.constantFrom<'key' | 'other' | 'none'>('key', 'key', 'other', 'none');

test(`${RUNS} random signed messages: the same result as mailauth (seed ${SEED})`, async () => {
  await fc.assert(
    fc.asyncProperty(message, signing, transit, dns, async (text, canon, change, published) => {
      const raw = Buffer.from(text, 'latin1');
      const { signatures } = await dkimSign(raw, {
        canonicalization: `${canon.header}/${canon.body}`,
        signTime: SIGN_TIME,
        signatureData: [
          {
            signingDomain: DOMAIN,
            selector: SELECTOR,
            privateKey: key.privateKeyPem,
            ...(canon.maxBodyLength === null ? {} : { maxBodyLength: canon.maxBodyLength }),
          },
        ],
      } as never);
      // An empty l= (mailauth's signer writes it for a body of 0 bytes to sign): where ours and mailauth differ (test below).
      fc.pre(!/[\s;]l=;/.test(signatures));
      const checked = Buffer.from(change(`${signatures}${text}`), 'latin1');
      const resolve = txtResolver(
        published === 'none' ? {} : { [KEY_NAME]: [dkimTxtValue((published === 'key' ? key : otherKey).publicKeyBase64)] },
      );
      const [ours, mailauth] = await Promise.all([verifySignatures(checked, resolve), verifyDkim(checked, resolve)]);
      expect({ message: checked.toString('latin1'), result: ours }).toEqual({ message: checked.toString('latin1'), result: mailauth });
    }),
    { seed: SEED, numRuns: RUNS },
  );
}, 120_000);

test('an empty l= (mailauth signs so for a limit of 0) is a malformed tag: permerror (RFC 6376 3.5, 1*76DIGIT); mailauth reads it as no limit', async () => {
  const text = `From: Sender <hello@${DOMAIN}>\r\nSubject: l=\r\n\r\nbody\r\n`;
  const { signatures } = await dkimSign(Buffer.from(text, 'latin1'), {
    canonicalization: 'simple/simple',
    signTime: SIGN_TIME,
    signatureData: [{ signingDomain: DOMAIN, selector: SELECTOR, privateKey: key.privateKeyPem, maxBodyLength: 0 }],
  } as never);
  expect(signatures).toMatch(/ l=;/);
  const checked = Buffer.from(`${signatures}${text}`, 'latin1');
  const resolve = txtResolver({ [KEY_NAME]: [dkimTxtValue(key.publicKeyBase64)] });
  expect(await verifySignatures(checked, resolve)).toEqual([{ status: 'permerror', reason: 'invalid signature header' }]);
  expect(await verifyDkim(checked, resolve)).toEqual([
    { status: 'fail', domain: DOMAIN, selector: SELECTOR, reason: 'body hash did not verify' },
  ]);
});
