/**
 * DNS lookups for domain verification through Node's resolver, pointed at the servers in
 * DNS_RESOLVERS (`host:port`, comma-separated) or the system's. "Nothing there" (NXDOMAIN, NODATA) and
 * a failed lookup (timeout, SERVFAIL, refused) are told apart: only the second is temporary.
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Lookup } from '../../domain/domains/evaluate';
import type { DnsResolver, HostResolver } from '../../ports/dns';

const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'NODATA']);

export function parseResolvers(setting: string): string[] {
  return setting
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);
}

export class NodeDnsResolver implements DnsResolver, HostResolver {
  private readonly resolver: Resolver;

  constructor(servers: string[], timeoutMs = 2500) {
    this.resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
    if (servers.length) this.resolver.setServers(servers);
  }

  private async lookup(run: () => Promise<string[]>): Promise<Lookup> {
    try {
      const values = await run();
      return values.length ? { kind: 'found', values } : { kind: 'none' };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'ERROR';
      if (ABSENT.has(code)) return { kind: 'none' };
      return { kind: 'error', message: code };
    }
  }

  txt(name: string): Promise<Lookup> {
    return this.lookup(async () => (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join('')));
  }

  /**
   * Any record type, answered as node:dns `resolve(name, rrtype)` answers (what mailauth's `resolver`
   * option expects for SPF, DKIM and DMARC). Throws on failure, with node's codes (ENOTFOUND, ENODATA, ...).
   */
  resolve(name: string, rrtype: string): Promise<unknown> {
    return this.resolver.resolve(name, rrtype);
  }

  /** Raw TXT chunks, as DKIM verifiers expect them. Throws on failure. */
  txtChunks(name: string): Promise<string[][]> {
    return this.resolver.resolveTxt(name);
  }

  cname(name: string): Promise<Lookup> {
    return this.lookup(() => this.resolver.resolveCname(name));
  }

  mx(name: string): Promise<Lookup> {
    return this.lookup(async () => (await this.resolver.resolveMx(name)).sort((a, b) => a.priority - b.priority).map((mx) => mx.exchange));
  }

  /** A and AAAA addresses (an IP literal is its own address); [] when there are none; throws when the lookup failed. */
  async resolveAddresses(host: string): Promise<string[]> {
    const name = host.replace(/^\[(.*)\]$/, '$1');
    if (isIP(name)) return [name];
    // RFC 6761: localhost names are loopback, without asking DNS (resolvers do not read /etc/hosts).
    if (/(^|\.)localhost\.?$/i.test(name)) return ['127.0.0.1', '::1'];
    const results = await Promise.allSettled([this.resolver.resolve4(name), this.resolver.resolve6(name)]);
    const addresses = results.flatMap((result) => (result.status === 'fulfilled' ? result.value : []));
    if (addresses.length) return addresses;
    const failure = results.find(
      (result) => result.status === 'rejected' && !ABSENT.has((result.reason as NodeJS.ErrnoException).code ?? ''),
    );
    if (failure) throw (failure as PromiseRejectedResult).reason;
    return [];
  }
}
