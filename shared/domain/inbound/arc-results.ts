/**
 * The results an ARC set carries (RFC 8617 section 4.1.1: ARC-Authentication-Results, in RFC 8601's syntax) of a
 * message the MX listener checked: what a forward's seal tells the next receiver about the original's SPF, DKIM and
 * DMARC as they were before the forward changed its From (docs/inbound.md, "Forwarding"). Pure.
 *
 * Values come from a stranger's message (its domains and selectors): only the characters of a domain name or a
 * selector are kept, so nothing can break out of the field.
 */
import type { AuthenticationChecks } from './authentication';

const token = (value: string | null): string | null => {
  const kept = (value ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 253);
  return kept || null;
};

/** `<authserv-id>; spf=... smtp.mailfrom=...; dkim=... header.d=... header.s=...; dmarc=... header.from=...`. */
export function arcAuthenticationResults(authservId: string, checks: AuthenticationChecks): string {
  const spfDomain = token(checks.spf.domain);
  const parts = [`spf=${checks.spf.result}${spfDomain ? ` smtp.mailfrom=${spfDomain}` : ''}`];
  const dkim = checks.dkim.length ? checks.dkim : [{ result: 'none' as const, domain: null, selector: null }];
  for (const signature of dkim) {
    const [domain, selector] = [token(signature.domain), token(signature.selector)];
    parts.push(`dkim=${signature.result}${domain ? ` header.d=${domain}` : ''}${selector ? ` header.s=${selector}` : ''}`);
  }
  const fromDomain = token(checks.dmarc.domain);
  parts.push(`dmarc=${checks.dmarc.result}${fromDomain ? ` header.from=${fromDomain}` : ''}`);
  return `${token(authservId) ?? 'mx'}; ${parts.join(';\r\n ')}`;
}
