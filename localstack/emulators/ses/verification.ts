/**
 * When the local SES counts an identity as verified, and the checks SendEmail makes with it, as SES does:
 *
 * - A domain identity stays PENDING until DNS shows its DKIM records: for Bring Your Own DKIM the TXT
 *   record at `<selector>._domainkey.<domain>` carrying the identity's public key
 *   (https://docs.aws.amazon.com/ses/latest/dg/send-email-authentication-dkim-bring-your-own.html), for
 *   Easy DKIM the three CNAMEs `<token>._domainkey.<domain>` -> `<token>.dkim.amazonses.com`
 *   (https://docs.aws.amazon.com/ses/latest/dg/send-email-authentication-dkim-easy.html). Still PENDING
 *   72 hours after verification started: FAILED, until the signing attributes are set again.
 * - A custom MAIL FROM domain stays PENDING until DNS shows an MX record for it
 *   (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_MailFromAttributes.html).
 * - An email-address identity stays PENDING until its verification link is followed (locally: confirm()).
 *
 * SES checks DNS periodically; the emulator checks when an operation looks at a PENDING identity
 * (GetEmailIdentity, ListEmailIdentities, SendEmail), at the servers `dnsResolver` names (the local cloud:
 * DNS_RESOLVERS when set, what the functions read, else its DNS emulator; ../../cloud/emulator-dns-servers.ts).
 * An identity, once SUCCESS, stays so (SES's re-checks of verified identities are not modeled).
 */
import type { Resolver } from 'node:dns/promises';
import { resolverFor, type DnsServers } from '../dns-servers';
import { SesError } from './errors';
import { SIMULATOR_DOMAIN } from './simulator';
import type { SesStore } from './store';
import type { EmailIdentity, IdentityVerification } from './types';

/** How long SES looks for a new identity's DNS records before it gives up (FAILED). */
export const VERIFICATION_WINDOW_MS = 72 * 60 * 60 * 1000;
const LOOKUP_TIMEOUT_MS = 1500;

export interface VerificationOptions {
  /** DNS servers identities are checked against (../dns-servers.ts); undefined: the system's resolvers. */
  dnsResolver?: DnsServers;
  /**
   * The least time an identity stays PENDING after its verification starts, even with its records in DNS
   * (SES checks periodically, not at once); only identities matching `names` when given. Default none.
   */
  delay?: { ms: number; names?: RegExp };
  /** Sandbox mode: recipients must be verified identities too (mailbox simulator addresses exempt). */
  sandbox?: boolean;
  region: string;
  log: (msg: string) => void;
}

/** A fresh verification (creation, new signing attributes, a new MAIL FROM domain). */
export function pendingSince(at: string): IdentityVerification {
  return { status: 'PENDING', startedAt: at };
}

/** The identity's DKIM/identity verification; identities stored before it existed start PENDING at their last change. */
export function verificationOf(identity: EmailIdentity): IdentityVerification {
  return identity.verification ?? pendingSince(identity.updatedAt);
}

export function isVerified(identity: EmailIdentity): boolean {
  return verificationOf(identity).status === 'SUCCESS';
}

const norm = (name: string): string => name.toLowerCase().replace(/\.$/, '');

/** The `p=` value of a DKIM TXT record, whitespace removed. */
function dkimKeyOf(txt: string): string | undefined {
  for (const tag of txt.split(';')) {
    const [name, ...value] = tag.split('=');
    if (name?.trim() === 'p') return value.join('=').replace(/\s+/g, '');
  }
  return undefined;
}

export class IdentityVerifier {
  constructor(
    private readonly store: SesStore,
    private readonly opts: VerificationOptions,
  ) {}

  /** Brings a PENDING identity (or MAIL FROM domain) up to date with DNS; stores and returns the result. */
  async refresh(identity: EmailIdentity): Promise<EmailIdentity> {
    const verification = verificationOf(identity);
    const mailFrom = identity.mailFrom;
    const checkIdentity = verification.status === 'PENDING' && identity.type === 'DOMAIN';
    const checkMailFrom = mailFrom !== null && (mailFrom.status ?? 'PENDING') === 'PENDING';
    if (!checkIdentity && !checkMailFrom && identity.verification) return identity;
    const now = Date.now();
    const nextVerification = checkIdentity ? await this.checkDomain(identity, verification, now) : verification;
    const nextMailFrom =
      mailFrom && checkMailFrom
        ? { ...mailFrom, status: (await this.hasMx(mailFrom.domain)) ? ('SUCCESS' as const) : ('PENDING' as const) }
        : mailFrom;
    // Changed meanwhile (new signing attributes, deleted): that newer state stands.
    const current = this.store.getIdentity(identity.name);
    if (current !== identity) return current ?? identity;
    const updated: EmailIdentity = { ...identity, verification: nextVerification, mailFrom: nextMailFrom };
    if (nextVerification.status !== verification.status || !identity.verification || nextMailFrom?.status !== mailFrom?.status) {
      if (nextVerification.status !== verification.status) this.opts.log(`identity ${identity.name} ${nextVerification.status}`);
      this.store.putIdentity(updated);
    }
    return updated;
  }

  /** Marks an email-address identity verified: what following SES's verification link does. */
  confirm(address: string): EmailIdentity | undefined {
    const identity = this.store.getIdentity(address);
    if (identity?.type !== 'EMAIL_ADDRESS') return undefined;
    const updated: EmailIdentity = {
      ...identity,
      verification: { status: 'SUCCESS', startedAt: verificationOf(identity).startedAt, verifiedAt: new Date().toISOString() },
    };
    this.store.putIdentity(updated);
    return updated;
  }

  /**
   * SendEmail's identity checks
   * (https://docs.aws.amazon.com/ses/latest/dg/troubleshoot-error-messages.html): the sender must be a
   * verified identity (its address, its domain or a parent domain), and in the sandbox every recipient
   * too, mailbox simulator addresses excepted
   * (https://docs.aws.amazon.com/ses/latest/dg/verify-addresses-and-domains.html). MessageRejected
   * names the identities that failed; a custom MAIL FROM not yet verified with REJECT_MESSAGE is
   * MailFromDomainNotVerifiedException.
   */
  async checkSend(sender: string, recipients: readonly string[]): Promise<void> {
    const senderIdentity = await this.verifiedIdentityFor(sender);
    const failed = senderIdentity ? [] : [sender];
    if (this.opts.sandbox) {
      for (const recipient of recipients) {
        if (norm(recipient.split('@')[1] ?? '') === SIMULATOR_DOMAIN) continue;
        if (!(await this.verifiedIdentityFor(recipient))) failed.push(recipient);
      }
    }
    if (failed.length > 0) {
      throw new SesError(
        'MessageRejected',
        `Email address is not verified. The following identities failed the check in region ${this.opts.region.toUpperCase()}: ${failed.join(', ')}`,
      );
    }
    const mailFrom = senderIdentity?.mailFrom;
    if (mailFrom && mailFrom.status !== 'SUCCESS' && mailFrom.behaviorOnMxFailure === 'REJECT_MESSAGE') {
      throw new SesError(
        'MailFromDomainNotVerifiedException',
        `The custom MAIL FROM domain ${mailFrom.domain} of ${senderIdentity.name} is not verified (no MX record found).`,
      );
    }
  }

  /** The first verified identity covering the address: itself, its domain, a parent domain. */
  private async verifiedIdentityFor(address: string): Promise<EmailIdentity | undefined> {
    const labels = (address.split('@')[1] ?? '').split('.');
    const names = [address, ...labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'))];
    for (const name of names) {
      const stored = this.store.getIdentity(name);
      if (!stored) continue;
      const identity = await this.refresh(stored);
      if (isVerified(identity)) return identity;
    }
    return undefined;
  }

  private async checkDomain(identity: EmailIdentity, verification: IdentityVerification, now: number): Promise<IdentityVerification> {
    const started = Date.parse(verification.startedAt);
    const delay = this.opts.delay;
    const delayed = delay && (!delay.names || new RegExp(delay.names.source, delay.names.flags.replace('g', '')).test(identity.name));
    if (delayed && now < started + delay.ms) return verification;
    if (await this.dkimPublished(identity)) return { ...verification, status: 'SUCCESS', verifiedAt: new Date(now).toISOString() };
    if (now >= started + VERIFICATION_WINDOW_MS) return { ...verification, status: 'FAILED' };
    return verification;
  }

  private async dkimPublished(identity: EmailIdentity): Promise<boolean> {
    const dkim = identity.dkim;
    if (!dkim) return false;
    const domain = identity.name;
    if (dkim.origin === 'EXTERNAL') {
      const name = `${dkim.selector}._domainkey.${domain}`;
      const records = await this.lookup(name, (r) => r.resolveTxt(name));
      return records.some((chunks) => dkimKeyOf(chunks.join('')) === dkim.publicKey);
    }
    const found = await Promise.all(
      dkim.tokens.map(async (token) => {
        const name = `${token}._domainkey.${domain}`;
        return (await this.lookup(name, (r) => r.resolveCname(name))).some((target) => norm(target) === `${token}.dkim.amazonses.com`);
      }),
    );
    return found.every(Boolean);
  }

  /**
   * An MX at the domain, or at the end of its CNAME (`rp.<domain>` -> the operator's MAIL FROM host): followed
   * here, as a recursive resolver does, since the two names may be served by different servers.
   */
  private async hasMx(domain: string): Promise<boolean> {
    if ((await this.lookup(domain, (r) => r.resolveMx(domain))).length > 0) return true;
    const [target] = await this.lookup(domain, (r) => r.resolveCname(domain));
    return target !== undefined && norm(target) !== norm(domain) && (await this.lookup(target, (r) => r.resolveMx(target))).length > 0;
  }

  /** A lookup of `name`'s records; none when the name or record does not exist or the lookup failed (still PENDING). */
  private async lookup<T>(name: string, query: (resolver: Resolver) => Promise<T[]>): Promise<T[]> {
    const resolver = resolverFor(this.opts.dnsResolver, norm(name), LOOKUP_TIMEOUT_MS);
    try {
      return await query(resolver);
    } catch {
      return [];
    }
  }
}
