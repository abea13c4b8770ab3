/**
 * SPF, DKIM and DMARC of a received message, with mailauth, looking records up through the service's
 * resolvers (DNS_RESOLVERS: the DNS emulator on the local cloud). SPF checks the connecting address
 * against the envelope sender's domain (the EHLO name for a bounce); DKIM every signature; DMARC the
 * From domain with their alignment. It never throws: checks that could not run are `temperror`.
 */
import { isIP } from 'node:net';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { dmarc as verifyDmarc } from 'mailauth/lib/dmarc';
import { spf as verifySpf } from 'mailauth/lib/spf';
import { toAuthResult, uncheckedAuthentication, type Authentication } from '../domain/inbound/authentication';
import { logWarn } from '../log';

/** node:dns `resolve(name, rrtype)`'s shape. */
export type RawResolve = (name: string, rrtype: string) => Promise<unknown>;

export interface AuthenticationInput {
  raw: Buffer;
  /** The connecting client's address. */
  ip: string;
  helo: string;
  mailFrom: string;
  /** Our host name (the MX), as named in the results. */
  mta: string;
}

export async function checkAuthentication(input: AuthenticationInput, resolve: RawResolve): Promise<Omit<Authentication, 'spam_reasons'>> {
  try {
    const result = await authenticate(input, resolve);
    const spf = result.spf ? { result: toAuthResult(result.spf.status?.result), domain: result.spf.domain ?? null } : { result: 'none' as const, domain: null };
    const dkim = (result.dkim?.results ?? [])
      .filter((signature) => signature.signingDomain || signature.status?.result !== 'none')
      .map((signature) => ({
        result: toAuthResult(signature.status?.result),
        domain: signature.signingDomain ?? null,
        selector: signature.selector ?? null,
        aligned: Boolean(signature.status?.aligned),
      }));
    const dmarcResult = result.dmarc || null;
    const policy = dmarcResult?.policy;
    const knownPolicy: Authentication['dmarc']['policy'] = policy === 'reject' || policy === 'quarantine' || policy === 'none' ? policy : null;
    const dmarc = dmarcResult
      ? {
          result: toAuthResult(dmarcResult.status?.result),
          // The From domain the policy applies to (mailauth names the organizational domain).
          domain: fromDomain(result.dkim?.headerFrom) ?? dmarcResult.domain ?? null,
          policy: knownPolicy,
        }
      : { result: 'none' as const, domain: null, policy: null };
    return { spf, dkim, dmarc };
  } catch (error) {
    logWarn('inbound: authentication checks failed', { error: (error as Error)?.message });
    const { spam_reasons: _, ...unchecked } = uncheckedAuthentication();
    return unchecked;
  }
}

/**
 * mailauth's `authenticate` (lib/mailauth.js) with ARC and BIMI off and Received not trusted: DKIM, then
 * SPF, then DMARC over both, from its submodules. Its index is not imported: it loads BIMI (undici, the
 * VMC certificate parser) and ARC sealing whether used or not (~700 KB of the worker's bundle).
 * The Authentication-Results header it also builds is not needed here.
 */
export async function authenticate(input: AuthenticationInput, resolve: RawResolve) {
  const resolver = resolve as never;
  const dkim = await dkimVerify(input.raw, { resolver, sender: input.mailFrom } as never);
  // As authenticate: without HELO the IP stands for it, an address literal in brackets.
  let helo = input.helo || input.ip;
  if (helo && isIP(helo)) helo = `[${helo}]`;
  const spf = await verifySpf({ ip: input.ip, helo, sender: input.mailFrom, mta: input.mta, resolver });
  const dmarc = dkim?.headerFrom
    ? await verifyDmarc({
        headerFrom: dkim.headerFrom,
        spfDomains: ([] as string[]).concat((spf && spf.status.result === 'pass' && spf.domain) || []),
        dkimDomains: (dkim.results || [])
          .filter((r) => r.status.result === 'pass')
          .map((r) => ({ id: (r as { id?: string }).id, domain: r.signingDomain!, aligned: r.status.aligned as never, underSized: (r.status as { underSized?: boolean }).underSized })),
        resolver,
      })
    : undefined;
  return { dkim, spf, dmarc: dmarc || (false as const) };
}

/** The domain of the (single) From address, lower-cased. */
function fromDomain(headerFrom: string | string[] | undefined): string | null {
  const address = Array.isArray(headerFrom) ? (headerFrom.length === 1 ? headerFrom[0] : undefined) : headerFrom;
  const at = address?.lastIndexOf('@') ?? -1;
  return address && at >= 0 ? address.slice(at + 1).trim().toLowerCase() : null;
}
