/**
 * SPF, DKIM and DMARC of a received message, with mailauth, looking records up through the service's
 * resolvers (DNS_RESOLVERS: the DNS emulator on the local cloud). SPF checks the connecting address
 * against the envelope sender's domain (the EHLO name for a bounce); DKIM every signature; DMARC the
 * From domain with their alignment. It never throws: checks that could not run are `temperror`.
 */
import { authenticate } from 'mailauth';
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
    const result = await authenticate(input.raw, {
      ip: input.ip,
      helo: input.helo,
      sender: input.mailFrom,
      mta: input.mta,
      resolver: resolve as never,
      disableArc: true,
      disableBimi: true,
      trustReceived: false,
    });
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

/** The domain of the (single) From address, lower-cased. */
function fromDomain(headerFrom: string | string[] | undefined): string | null {
  const address = Array.isArray(headerFrom) ? (headerFrom.length === 1 ? headerFrom[0] : undefined) : headerFrom;
  const at = address?.lastIndexOf('@') ?? -1;
  return address && at >= 0 ? address.slice(at + 1).trim().toLowerCase() : null;
}
