/**
 * Where a domain's mail goes, by DNS (RFC 5321 section 5.1): its MX records; without any, its A/AAAA
 * addresses (the implicit MX); a lone MX of `.` is a null MX (RFC 7505: the domain takes no mail). Asked
 * through the service's resolver (DNS_RESOLVERS), each domain at most `timeoutMs` (a slower answer is a
 * DNS failure, as a timeout or SERVFAIL is: `dns_error`, never a proof of absence). Answers are kept for
 * `ttlMs` per process (the send's `validate: true` asks again for every send; failures are not kept), so a
 * DNS change is seen within that time.
 */
import type { DomainCheck } from '../../domain/address-validation/verdict';
import { withTimeout } from '../../lib/concurrency';
import { TtlCache } from '../../lib/ttl-cache';
import type { DnsResolver, HostResolver } from '../../ports/dns';

export interface MailDomainsOptions {
  /** How long one domain's lookups may take in all. */
  timeoutMs: number;
  /** How long an answer is kept (0: never). */
  ttlMs: number;
}

export const MAIL_DOMAINS_DEFAULTS: MailDomainsOptions = { timeoutMs: 4_000, ttlMs: 60_000 };

export class MailDomains {
  private readonly cache: TtlCache<string, DomainCheck>;

  constructor(
    private readonly dns: Pick<DnsResolver, 'mx'> & HostResolver,
    private readonly options: MailDomainsOptions = MAIL_DOMAINS_DEFAULTS,
  ) {
    this.cache = new TtlCache(options.ttlMs, 10_000);
  }

  /** The mail hosts of `domain` (lower case, A-labels). */
  async check(domain: string): Promise<DomainCheck> {
    const kept = this.cache.get(domain);
    if (kept) return kept;
    const answer = await withTimeout(
      this.lookup(domain).catch((): DomainCheck => ({ result: 'dns_error', hosts: [] })),
      this.options.timeoutMs,
    );
    const check: DomainCheck = answer === 'timeout' ? { result: 'dns_error', hosts: [] } : answer;
    if (check.result !== 'dns_error') this.cache.set(domain, check);
    return check;
  }

  private async lookup(domain: string): Promise<DomainCheck> {
    const mx = await this.dns.mx(domain);
    if (mx.kind === 'error') return { result: 'dns_error', hosts: [] };
    if (mx.kind === 'found') {
      // Node answers the null MX's exchange `.` as ''.
      const hosts = mx.values.map((host) => host.replace(/\.$/, '')).filter((host) => host !== '');
      return hosts.length === 0 ? { result: 'null_mx', hosts: [] } : { result: 'mx', hosts };
    }
    const addresses = await this.dns.resolveAddresses(domain);
    return addresses.length === 0 ? { result: 'no_mail_host', hosts: [] } : { result: 'implicit_mx', hosts: [domain] };
  }
}
