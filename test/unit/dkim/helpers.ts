/** DKIM test helpers: a composed MIME message, two keys and that message signed, and TXT lookups shaped like node:dns resolveTxt. */
import MailComposer from 'nodemailer/lib/mail-composer';
import { dkimTxtValue, generateDkimKey, type DkimKey } from '#shared/lib/dkim/keys';
import { signDkim } from '#shared/lib/dkim/sign';
import type { ResolveTxt } from '#shared/lib/dkim/verify';

export const DOMAIN = 'example.test';
export const SELECTOR = 'svc2611abcdef';
export const KEY_NAME = `${SELECTOR}._domainkey.${DOMAIN}`;

export interface SignedFixture {
  /** The key the message is signed with, and another one. */
  key: DkimKey;
  otherKey: DkimKey;
  /** composeMessage(), unsigned and signed with `key` (DOMAIN, SELECTOR). */
  message: Buffer;
  signed: Buffer;
}

/** Two fresh keys and the composed message signed with the first (a test file's beforeAll). */
export async function signedFixture(): Promise<SignedFixture> {
  const [key, otherKey] = await Promise.all([generateDkimKey(), generateDkimKey()]);
  const message = await composeMessage();
  const signed = await signDkim({ raw: message, domain: DOMAIN, selector: SELECTOR, privateKeyPem: key.privateKeyPem });
  return { key, otherKey, message, signed };
}

/** DNS publishing `k`'s public key at KEY_NAME. */
export const publishing = (k: DkimKey) => txtResolver({ [KEY_NAME]: [dkimTxtValue(k.publicKeyBase64)] });

export function composeMessage(overrides: Record<string, unknown> = {}): Promise<Buffer> {
  return new MailComposer({
    from: `Sender <hello@${DOMAIN}>`,
    to: ['Recipient <someone@receiver.test>', 'other@receiver.test'],
    cc: 'copy@receiver.test',
    replyTo: `support@${DOMAIN}`,
    subject: 'Héllo   with  spaces and ünïcode',
    text: 'Plain text body\nwith two lines   and trailing spaces   \n\n\n',
    html: '<p>HTML body</p>',
    messageId: `<msg_01@${DOMAIN}>`,
    date: new Date('2026-11-21T09:00:00Z'),
    headers: {
      'List-Unsubscribe': `<https://${DOMAIN}/u/abc>, <mailto:unsubscribe@${DOMAIN}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'X-Service-Message-Id': 'msg_01',
    },
    ...overrides,
  })
    .compile()
    .build();
}

/** Errors as node:dns rejects them. */
export function dnsError(code: 'ENOTFOUND' | 'ENODATA' | 'ETIMEOUT' | 'ESERVFAIL', name: string): Error {
  return Object.assign(new Error(`queryTxt ${code} ${name}`), { code, hostname: name });
}

/** Serves TXT records by name; unknown names are NXDOMAIN. Records are split into 255-byte strings, as DNS stores them. */
export function txtResolver(records: Record<string, string[]>): ResolveTxt & { queries: string[] } {
  const queries: string[] = [];
  const resolve = async (name: string): Promise<string[][]> => {
    queries.push(name);
    const values = records[name];
    if (!values) throw dnsError('ENOTFOUND', name);
    return values.map((value) => value.match(/.{1,255}/gs) ?? ['']);
  };
  return Object.assign(resolve, { queries });
}
