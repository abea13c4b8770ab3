/**
 * shared/lib/dkim/verify.ts (the domain check's signing probe) against test/support/mailauth-dkim.ts
 * (mailauth's verifier, with the same stricter statuses): the same result, reason included, on every case of
 * sign-verify.test.ts, plus simple canonicalization and l=, which our signer never uses.
 */
import { generateKeyPairSync } from 'node:crypto';
import { dkimSign } from 'mailauth/lib/dkim/sign';
import { dkimTxtValue, type DkimKey } from '#shared/lib/dkim/keys';
import { signDkim } from '#shared/lib/dkim/sign';
import { verifySignatures, type ResolveTxt } from '#shared/lib/dkim/verify';
import { verifyDkim } from '../../support/mailauth-dkim';
import { probeMessage } from '#shared/usecases/domains/verify';
import { DOMAIN, KEY_NAME, SELECTOR, dnsError, publishing, signedFixture, txtResolver } from './helpers';

let key: DkimKey;
let otherKey: DkimKey;
let message: Buffer;
let signed: Buffer;
beforeAll(async () => {
  ({ key, otherKey, message, signed } = await signedFixture());
});
const latin1 = (text: string) => Buffer.from(text, 'latin1');
// signTime: mailauth's signer reads the clock twice when it is not given (the header it hashes and the one it
// returns, t= from Date.now() rounded, in each): across a half second they differ and the signature fails (1 in ~300).
const SIGN_TIME = new Date();

/** Both verifiers on the same message and DNS; the results must be equal (and are returned for further checks). */
async function agree(raw: Buffer, resolve: ResolveTxt) {
  const [ours, mailauth] = await Promise.all([verifySignatures(raw, resolve), verifyDkim(raw, resolve)]);
  expect(ours).toEqual(mailauth);
  return ours;
}

const cases: [string, () => Promise<{ raw: Buffer; resolve: ResolveTxt; status: string }>][] = [
  ['a pass', async () => ({ raw: signed, resolve: publishing(key), status: 'pass' })],
  [
    'bare LF line ends',
    async () => {
      const lf = latin1(message.toString('latin1').replace(/\r\n/g, '\n'));
      return {
        raw: await signDkim({ raw: lf, domain: DOMAIN, selector: SELECTOR, privateKeyPem: key.privateKeyPem }),
        resolve: publishing(key),
        status: 'pass',
      };
    },
  ],
  [
    'an empty body and 8-bit header bytes',
    async () => {
      const raw = Buffer.concat([latin1(`From: hello@${DOMAIN}\r\nSubject: caf`), Buffer.from('é ü\t \r\n\r\n', 'utf8')]);
      return {
        raw: await signDkim({ raw, domain: DOMAIN, selector: SELECTOR, privateKeyPem: key.privateKeyPem }),
        resolve: publishing(key),
        status: 'pass',
      };
    },
  ],
  [
    're-folding and whitespace changes in transit',
    async () => {
      const text = signed
        .toString('latin1')
        .replace('Subject: ', 'Subject:    ')
        .replace(/trailing spaces {3}/, 'trailing spaces');
      return { raw: latin1(text.replace(/(Plain text body)/, '$1 ')), resolve: publishing(key), status: 'pass' };
    },
  ],
  ['the TXT record of another key', async () => ({ raw: signed, resolve: publishing(otherKey), status: 'fail' })],
  [
    'a tampered body',
    async () => ({ raw: latin1(signed.toString('latin1').replace('HTML body', 'HTML b0dy')), resolve: publishing(key), status: 'fail' }),
  ],
  [
    'a tampered signed header',
    async () => ({
      raw: latin1(signed.toString('latin1').replace(/^Subject: .*$/m, 'Subject: Changed')),
      resolve: publishing(key),
      status: 'fail',
    }),
  ],
  [
    'a second From added',
    async () => {
      const text = signed.toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      return {
        raw: latin1(`${text.slice(0, split)}\r\nFrom: attacker@evil.test${text.slice(split)}`),
        resolve: publishing(key),
        status: 'fail',
      };
    },
  ],
  [
    'unsigned headers added or changed',
    async () => ({
      raw: latin1(
        `Received: from relay\r\n${signed.toString('latin1').replace('X-Service-Message-Id: msg_01', 'X-Service-Message-Id: changed')}`,
      ),
      resolve: publishing(key),
      status: 'pass',
    }),
  ],
  ['no key record (NXDOMAIN)', async () => ({ raw: signed, resolve: txtResolver({}), status: 'permerror' })],
  [
    'no TXT records (NODATA)',
    async () => ({ raw: signed, resolve: async (name) => Promise.reject(dnsError('ENODATA', name)), status: 'permerror' }),
  ],
  [
    'a DNS failure',
    async () => ({ raw: signed, resolve: async (name) => Promise.reject(dnsError('ETIMEOUT', name)), status: 'temperror' }),
  ],
  [
    'an empty key (revoked)',
    async () => ({ raw: signed, resolve: txtResolver({ [KEY_NAME]: ['v=DKIM1; k=rsa; p='] }), status: 'permerror' }),
  ],
  [
    'another key version',
    async () => ({ raw: signed, resolve: txtResolver({ [KEY_NAME]: [`v=DKIM2; k=rsa; p=${key.publicKeyBase64}`] }), status: 'permerror' }),
  ],
  [
    'a value that is not a key',
    async () => ({ raw: signed, resolve: txtResolver({ [KEY_NAME]: ['v=DKIM1; k=rsa; p=bm90IGEga2V5'] }), status: 'permerror' }),
  ],
  [
    'a key under 1024 bits',
    async () => {
      const weak = generateKeyPairSync('rsa', {
        modulusLength: 768,
        publicKeyEncoding: { type: 'spki', format: 'der' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      });
      const raw = await signDkim({ raw: message, domain: DOMAIN, selector: SELECTOR, privateKeyPem: weak.privateKey });
      return { raw, resolve: txtResolver({ [KEY_NAME]: [dkimTxtValue(weak.publicKey.toString('base64'))] }), status: 'permerror' };
    },
  ],
  [
    'the key among other TXT records',
    async () => ({
      raw: signed,
      resolve: txtResolver({ [KEY_NAME]: ['google-site-verification=abc', dkimTxtValue(key.publicKeyBase64)] }),
      status: 'pass',
    }),
  ],
  ['an unsigned message', async () => ({ raw: message, resolve: txtResolver({}), status: 'none' })],
  [
    "mailauth's own signature: simple/simple, rsa-sha256, l=",
    async () => {
      const { signatures } = await dkimSign(message, {
        canonicalization: 'simple/simple',
        signTime: SIGN_TIME,
        signatureData: [{ signingDomain: DOMAIN, selector: SELECTOR, privateKey: key.privateKeyPem, maxBodyLength: 20 }],
      } as never);
      return { raw: Buffer.concat([latin1(signatures), message]), resolve: publishing(key), status: 'pass' };
    },
  ],
  [
    "mailauth's own signature, relaxed/simple, body changed after l=",
    async () => {
      const { signatures } = await dkimSign(message, {
        canonicalization: 'relaxed/simple',
        signTime: SIGN_TIME,
        signatureData: [{ signingDomain: DOMAIN, selector: SELECTOR, privateKey: key.privateKeyPem, maxBodyLength: 10 }],
      } as never);
      return { raw: latin1(`${signatures}${message.toString('latin1')}appended\r\n`), resolve: publishing(key), status: 'pass' };
    },
  ],
];

describe('verifySignatures', () => {
  test.each(cases)('%s: the same result as mailauth', async (_name, make) => {
    const { raw, resolve, status } = await make();
    const results = await agree(raw, resolve);
    expect(results[0]?.status).toBe(status);
  });

  test('one result per signature, in message order', async () => {
    const twice = await signDkim({ raw: signed, domain: `sub.${DOMAIN}`, selector: 'second', privateKeyPem: otherKey.privateKeyPem });
    const resolve = txtResolver({
      [KEY_NAME]: [dkimTxtValue(key.publicKeyBase64)],
      [`second._domainkey.sub.${DOMAIN}`]: [dkimTxtValue(otherKey.publicKeyBase64)],
    });
    expect(await verifySignatures(twice, resolve)).toEqual([
      { status: 'pass', domain: `sub.${DOMAIN}`, selector: 'second' },
      { status: 'pass', domain: DOMAIN, selector: SELECTOR },
    ]);
  });

  test("the domain check's probe message, signed with the domain's key, passes against it (and fails against another)", async () => {
    const probe = probeMessage({ id: 'dom_01', name: DOMAIN }, new Date('2026-11-21T09:00:00Z'));
    expect(probe.toString('latin1')).toMatch(
      /^From: dkim-check@example\.test\r\n[\s\S]*\r\nDate: Sat, 21 Nov 2026 09:00:00 \+0000\r\n[\s\S]*\r\n\r\nSigning check for example\.test at 2026-11-21T09:00:00\.000Z\r\n$/,
    );
    const probeSigned = await signDkim({ raw: probe, domain: DOMAIN, selector: SELECTOR, privateKeyPem: key.privateKeyPem });
    expect(await agree(probeSigned, publishing(key))).toEqual([{ status: 'pass', domain: DOMAIN, selector: SELECTOR }]);
    expect(await agree(probeSigned, publishing(otherKey))).toEqual([
      { status: 'fail', domain: DOMAIN, selector: SELECTOR, reason: 'bad signature' },
    ]);
  });
});
