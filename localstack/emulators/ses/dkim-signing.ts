/**
 * SES's DKIM signature with a Bring Your Own DKIM key: for a domain identity set up with BYODKIM, SES
 * signs each message from that domain with the customer's key and selector
 * (https://docs.aws.amazon.com/ses/latest/dg/send-email-authentication-dkim-bring-your-own.html), after its
 * own changes (Message-ID, Date, tracking), so the signature covers the delivered bytes. A sender
 * subdomain without an identity of its own is signed by its parent domain's identity, as SES's DKIM
 * inheritance does (https://docs.aws.amazon.com/ses/latest/dg/send-email-authentication-dkim.html).
 *
 * Signed with mailauth (rsa-sha256, relaxed/relaxed): an implementation independent of the product's
 * signer. The signed fields are the emulator's choice, as AWS does not list SES's: mailauth's default list
 * plus List-Unsubscribe-Post (one-click unsubscribe needs both List-Unsubscribe fields DKIM-covered:
 * RFC 8058 section 4). Not modelled: the second signature SES adds with `d=amazonses.com`
 * (https://docs.aws.amazon.com/ses/latest/dg/send-email-authentication-dkim-manual.html): its key is
 * Amazon's, and no local DNS publishes one.
 */
import type { SesStore } from './store';
import type { IdentityDkim } from './types';

type ExternalDkim = Extract<IdentityDkim, { origin: 'EXTERNAL' }>;

const SIGNED_FIELDS = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'Content-ID',
  'Content-Description',
  'Resent-Date',
  'Resent-From',
  'Resent-Sender',
  'Resent-To',
  'Resent-Cc',
  'Resent-Message-ID',
  'In-Reply-To',
  'References',
  'List-Id',
  'List-Help',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'List-Subscribe',
  'List-Post',
  'List-Owner',
  'List-Archive',
];

/** The BYODKIM identity that signs mail from `domain`: its own, else its closest parent domain's. */
function signingIdentity(store: Pick<SesStore, 'getIdentity'>, domain: string): { domain: string; dkim: ExternalDkim } | null {
  const labels = domain.toLowerCase().split('.');
  for (let i = 0; i < labels.length - 1; i += 1) {
    const candidate = labels.slice(i).join('.');
    const dkim = store.getIdentity(candidate)?.dkim;
    if (dkim) return dkim.origin === 'EXTERNAL' && dkim.privateKeyPem ? { domain: candidate, dkim } : null;
  }
  return null;
}

type DkimSign = typeof import('mailauth/lib/dkim/sign').dkimSign;

let dkimSignOnce: DkimSign | undefined;

/**
 * mailauth when a BYODKIM identity first signs, not when the local cloud starts (with joi, which it loads, about
 * 0.1 s of every start's CPU, profiled). `require`: the package has no exports map for an `import()` of its files.
 */
function dkimSign(...args: Parameters<DkimSign>): ReturnType<DkimSign> {
  dkimSignOnce ??= (require('mailauth/lib/dkim/sign') as typeof import('mailauth/lib/dkim/sign')).dkimSign;
  return dkimSignOnce(...args);
}

/** The message with SES's BYODKIM DKIM-Signature prepended; unchanged when the sender's domain has no BYODKIM key. */
export async function signWithByodkim(store: Pick<SesStore, 'getIdentity'>, raw: Buffer, fromAddress: string): Promise<Buffer> {
  const at = fromAddress.lastIndexOf('@');
  if (at < 0) return raw;
  const signer = signingIdentity(store, fromAddress.slice(at + 1));
  if (!signer) return raw;
  const result = await dkimSign(raw, {
    canonicalization: 'relaxed/relaxed',
    algorithm: 'rsa-sha256',
    // The time read once: without it mailauth writes t= from Date.now() (rounded) into the header it hashes and
    // again into the header it returns, and when the two reads straddle a half second the signature covers
    // another t= than the message carries (about one message in 24 on a loaded machine failed to verify).
    signTime: new Date(),
    // mailauth takes the list as one colon-separated string (its typings say string[]).
    headerList: SIGNED_FIELDS.join(':') as unknown as string[],
    signatureData: [{ signingDomain: signer.domain, selector: signer.dkim.selector, privateKey: signer.dkim.privateKeyPem! }],
  } as Parameters<typeof dkimSign>[1]);
  if (result.errors.length > 0) throw result.errors[0];
  return Buffer.concat([Buffer.from(result.signatures, 'latin1'), raw]);
}
