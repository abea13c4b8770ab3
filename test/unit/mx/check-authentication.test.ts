/**
 * shared/doors/mx/check-authentication.ts runs mailauth's DKIM, SPF and DMARC from its submodules (its
 * index loads BIMI and ARC, ~700 KB of bundle): the same results as mailauth's own `authenticate` with
 * the options the inbound worker used to pass (ARC and BIMI off, Received not trusted), on passing,
 * failing and broken cases, DNS served by a fake resolver. The MX listener runs it before its 250, so it
 * is bounded in time (a resolver that never answers gives `temperror` after the limit) and in size.
 */
import { authenticate as mailauthAuthenticate } from 'mailauth';
import { dkimTxtValue, generateDkimKey, type DkimKey } from '#shared/lib/dkim/keys';
import { signDkim } from '#shared/lib/dkim/sign';
import { MAX_DKIM_RESULTS } from '#shared/domain/inbound/authentication';
import {
  AUTHENTICATION_TIMEOUT_MS,
  authenticate,
  checkAuthentication,
  type AuthenticationInput,
  type RawResolve,
} from '#shared/doors/mx/check-authentication';
import { crlf } from '../inbound/messages';

process.env.LOG_LEVEL = 'silent';

const SELECTOR = 'svc2611abcdef';
let key: DkimKey;
beforeAll(async () => {
  key = await generateDkimKey();
});

const dnsError = (code: string, name: string) => Object.assign(new Error(`query ${code} ${name}`), { code, hostname: name });

/** TXT (and other) records by `name/TYPE`; anything else is NXDOMAIN, or `failing` names time out. */
function resolver(records: Record<string, unknown[]>, failing: string[] = []): RawResolve {
  return async (name, rrtype) => {
    if (failing.includes(name)) throw dnsError('ETIMEOUT', name);
    const found = records[`${name.toLowerCase()}/${rrtype}`];
    if (!found) throw dnsError('ENOTFOUND', name);
    return found;
  };
}

const message = (from: string) =>
  crlf(`From: Alice <${from}>`, 'To: support@inbound.example.com', 'Subject: Hello', 'Message-ID: <1@example.com>', '', 'Hi there.', '');
const signed = (raw: Buffer, domain: string) => signDkim({ raw, domain, selector: SELECTOR, privateKeyPem: key.privateKeyPem });

const published = (extra: Record<string, unknown[]> = {}) =>
  resolver({
    'example.com/TXT': [['v=spf1 ip4:192.0.2.10 -all']],
    [`${SELECTOR}._domainkey.example.com/TXT`]: [[dkimTxtValue(key.publicKeyBase64)]],
    '_dmarc.example.com/TXT': [['v=DMARC1; p=reject']],
    ...extra,
  });

const cases: [string, () => Promise<{ input: AuthenticationInput; resolve: RawResolve }>][] = [
  [
    'SPF, DKIM and DMARC pass',
    async () => ({
      input: {
        raw: await signed(message('alice@example.com'), 'example.com'),
        ip: '192.0.2.10',
        helo: 'mail.example.com',
        mailFrom: 'alice@example.com',
        mta: 'mx.service.test',
      },
      resolve: published(),
    }),
  ],
  [
    'SPF fails, DKIM aligned: DMARC passes',
    async () => ({
      input: {
        raw: await signed(message('alice@example.com'), 'example.com'),
        ip: '198.51.100.7',
        helo: 'mail.example.com',
        mailFrom: 'alice@example.com',
        mta: 'mx.service.test',
      },
      resolve: published(),
    }),
  ],
  [
    'unsigned, SPF fails: DMARC fails (p=reject)',
    async () => ({
      input: {
        raw: message('alice@example.com'),
        ip: '198.51.100.7',
        helo: 'mail.example.com',
        mailFrom: 'alice@example.com',
        mta: 'mx.service.test',
      },
      resolve: published(),
    }),
  ],
  [
    'signed by another domain (not aligned), SPF passes',
    async () => ({
      input: {
        raw: await signed(message('alice@example.com'), 'other.test'),
        ip: '192.0.2.10',
        helo: 'mail.example.com',
        mailFrom: 'alice@example.com',
        mta: 'mx.service.test',
      },
      resolve: published({ [`${SELECTOR}._domainkey.other.test/TXT`]: [[dkimTxtValue(key.publicKeyBase64)]] }),
    }),
  ],
  [
    'a bounce (empty MAIL FROM), HELO an address literal',
    async () => ({
      input: { raw: message('alice@example.com'), ip: '192.0.2.10', helo: '', mailFrom: '', mta: 'mx.service.test' },
      resolve: published(),
    }),
  ],
  [
    'no records at all',
    async () => ({
      input: {
        raw: message('bob@nowhere.test'),
        ip: '203.0.113.5',
        helo: 'host.nowhere.test',
        mailFrom: 'bob@nowhere.test',
        mta: 'mx.service.test',
      },
      resolve: resolver({}),
    }),
  ],
  [
    'DNS timeouts',
    async () => ({
      input: {
        raw: await signed(message('alice@example.com'), 'example.com'),
        ip: '192.0.2.10',
        helo: 'mail.example.com',
        mailFrom: 'alice@example.com',
        mta: 'mx.service.test',
      },
      resolve: resolver({}, ['example.com', `${SELECTOR}._domainkey.example.com`, '_dmarc.example.com']),
    }),
  ],
];

describe('checkAuthentication', () => {
  test.each(cases)('%s: the results of mailauth.authenticate', async (_name, make) => {
    const { input, resolve } = await make();
    const ours = await authenticate(input, resolve);
    const reference = await mailauthAuthenticate(input.raw, {
      ip: input.ip,
      helo: input.helo,
      sender: input.mailFrom,
      mta: input.mta,
      resolver: resolve as never,
      disableArc: true,
      disableBimi: true,
      trustReceived: false,
    });
    expect(ours.dkim.results).toEqual(reference.dkim.results);
    expect(ours.dkim.headerFrom).toEqual(reference.dkim.headerFrom);
    expect(ours.spf).toEqual(reference.spf);
    expect(ours.dmarc).toEqual(reference.dmarc);
  });

  test('the worker-facing answer: pass, pass, pass (reject) for a good message', async () => {
    const { input, resolve } = await cases[0]![1]();
    expect(await checkAuthentication(input, resolve)).toEqual({
      spf: { result: 'pass', domain: 'example.com' },
      dkim: [{ result: 'pass', domain: 'example.com', selector: SELECTOR, aligned: true }],
      dmarc: { result: 'pass', domain: 'example.com', policy: 'reject' },
    });
  });

  test(`gives up after ${AUTHENTICATION_TIMEOUT_MS} ms by default when DNS never answers: unchecked (temperror)`, async () => {
    const { input } = await cases[0]![1]();
    const asked: string[] = [];
    const never: RawResolve = (name, rrtype) => {
      asked.push(`${name}/${rrtype}`);
      return new Promise(() => undefined);
    };
    jest.useFakeTimers();
    try {
      let answer: unknown;
      void checkAuthentication(input, never).then((result) => (answer = result));
      await jest.advanceTimersByTimeAsync(AUTHENTICATION_TIMEOUT_MS - 1);
      expect(answer).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1);
      expect(answer).toEqual({
        spf: { result: 'temperror', domain: null },
        dkim: [],
        dmarc: { result: 'temperror', domain: null, policy: null },
      });
      expect(asked.length).toBeGreaterThan(0);
    } finally {
      jest.useRealTimers();
    }
  });

  test('a shorter limit when given, in real time', async () => {
    const { input } = await cases[0]![1]();
    const started = Date.now();
    const answer = await checkAuthentication(input, () => new Promise(() => undefined), { timeoutMs: 150 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(answer.spf.result).toBe('temperror');
    expect(answer.dmarc.result).toBe('temperror');
  });

  test(`reports at most ${MAX_DKIM_RESULTS} DKIM signatures, in header order, and names of at most 255 characters`, async () => {
    let raw: Buffer = message('alice@example.com');
    for (let i = 0; i < MAX_DKIM_RESULTS + 5; i++) raw = await signed(raw, 'example.com');
    const longSelector = 'x'.repeat(1000);
    raw = Buffer.concat([
      Buffer.from(`DKIM-Signature: v=1; a=rsa-sha256; d=example.com; s=${longSelector}; h=from; bh=AAAA; b=AAAA\r\n`),
      raw,
    ]);
    const answer = await checkAuthentication(
      { raw, ip: '192.0.2.10', helo: 'mail.example.com', mailFrom: 'alice@example.com', mta: 'mx.service.test' },
      published(),
    );
    expect(answer.dkim).toHaveLength(MAX_DKIM_RESULTS);
    expect(answer.dkim[0]!.selector).toBe(longSelector.slice(0, 255));
    expect(answer.dkim.slice(1).every((signature) => signature.selector === SELECTOR)).toBe(true);
    expect(answer.dmarc).toEqual({ result: 'pass', domain: 'example.com', policy: 'reject' });
  });
});

describe('authenticate: the checks look up at once', () => {
  it("asks for the DMARC record while SPF's lookup is still unanswered, and asks each name once", async () => {
    const { input } = await cases[0]![1]();
    const answer = published();
    const asked: string[] = [];
    let dmarcAsked: () => void = () => undefined;
    const dmarcWasAsked = new Promise<void>((resolve) => (dmarcAsked = resolve));
    // SPF's record is answered only once the DMARC record was asked for: checks run one after the other
    // would wait here for ever (the test's timeout).
    const resolve: RawResolve = async (name, rrtype) => {
      asked.push(`${name}/${rrtype}`);
      if (name === '_dmarc.example.com') dmarcAsked();
      if (name === 'example.com' && rrtype === 'TXT') await dmarcWasAsked;
      return answer(name, rrtype);
    };
    const result = await authenticate(input, resolve);
    expect([result.spf?.status.result, result.dmarc ? result.dmarc.status.result : null]).toEqual(['pass', 'pass']);
    expect(asked.length).toBe(new Set(asked).size);
  }, 5000);
});
