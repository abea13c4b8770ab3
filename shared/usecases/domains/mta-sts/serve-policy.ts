/**
 * The MTA-STS function's answer (functions/api/mta-sts/handler.ts): the policy of the host a sender asked for
 * (`mta-sts.<policy domain>`, API Gateway's custom domain name), as RFC 8461 section 3.3 says to serve it:
 * 200, media type text/plain, no redirect. A host with no policy served (none hosted, its certificate not
 * issued yet, being removed) is 404.
 */
import { SERVING_STATUSES } from '#shared/domain/domains/mta-sts/hosting';
import { policyDomainOfHost, policyText } from '#shared/domain/domains/mta-sts/policy';
import type { MtaStsHostingRepository } from '#shared/adapters/store/mta-sts-hosting';

export interface PolicyAnswer {
  status: 200 | 404;
  headers: Record<string, string>;
  body: string;
}

const notFound: PolicyAnswer = {
  status: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body: 'No MTA-STS policy is hosted here.\n',
};

export async function servePolicy(
  deps: { mtaStsHosting: Pick<MtaStsHostingRepository, 'get'> },
  host: string | undefined,
): Promise<PolicyAnswer> {
  const policyDomain = host ? policyDomainOfHost(host) : null;
  if (!policyDomain) return notFound;
  const stored = await deps.mtaStsHosting.get(policyDomain, { consistent: false });
  if (!stored || !SERVING_STATUSES.includes(stored.hosting.status)) return notFound;
  const { hosting } = stored;
  return {
    status: 200,
    // Senders cache the policy for max_age themselves (RFC 8461 section 5.1); an HTTP cache should not keep an old one longer than a few minutes.
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'max-age=300' },
    body: policyText({ mode: hosting.mode, mxHosts: hosting.mx, maxAgeS: hosting.max_age }),
  };
}
