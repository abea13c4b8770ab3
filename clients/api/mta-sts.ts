/**
 * The hosted MTA-STS policy as the clients read and write it (GET, PUT and DELETE /domains/{id}/mta-sts;
 * docs/deliverability.md, "Hosted MTA-STS policy"): the calls, the answers' types and the words both the CLI
 * and the MCP server use to sum them up. The types come from the API's own records (type-only imports:
 * nothing of shared/ runs in the clients).
 */
import type { PublicHosting } from '#shared/domain/domains/mta-sts/hosting';
import type { MtaStsInput, MtaStsMode } from '#shared/domain/domains/mta-sts/policy';
import type { ApiClient } from './client';

export type MtaStsHosting = PublicHosting;
export type MtaStsRecord = MtaStsHosting['records'][number];
export type MtaStsPolicyInput = MtaStsInput;
export interface MtaStsDeleted {
  object: 'mta_sts_hosting';
  domain_id: string;
  deleted: true;
}

/** RFC 8461 section 5, as the API takes them. */
export const MTA_STS_MODES = ['enforce', 'testing', 'none'] as const satisfies readonly MtaStsMode[];

/** What each record is for, as both clients explain it. */
export const MTA_STS_RECORD_PURPOSES: Readonly<Record<MtaStsRecord['purpose'], string>> = {
  certificate_validation:
    "ACM's DNS validation of the policy host's certificate (publish it first: the certificate is issued once it is found)",
  policy_host: 'points mta-sts.<policy domain> at the host that serves the policy (listed once the certificate is issued)',
  policy: 'announces the policy and its id to senders (a new id, so a new value, whenever mode or max_age changes)',
  tls_rpt: 'asks senders to mail TLS failure reports to the receiving subdomain (recommended, not needed)',
};

const pathOf = (domainId: string) => `/domains/${encodeURIComponent(domainId)}/mta-sts`;

/** GET /domains/{id}/mta-sts: the hosted policy (404 not_found when none is hosted). */
export function getMtaSts(api: ApiClient, domainId: string): Promise<MtaStsHosting> {
  return api.get<MtaStsHosting>(pathOf(domainId));
}

/** PUT /domains/{id}/mta-sts: host the policy, or change it (the same body again: its next step now). */
export function hostMtaSts(api: ApiClient, domainId: string, policy: MtaStsPolicyInput): Promise<MtaStsHosting> {
  return api.request<MtaStsHosting>('PUT', pathOf(domainId), { body: policy });
}

/** DELETE /domains/{id}/mta-sts: stop hosting it. */
export function stopMtaSts(api: ApiClient, domainId: string): Promise<MtaStsDeleted> {
  return api.delete<MtaStsDeleted>(pathOf(domainId));
}

/** "inbound.example.com (dom_01): pending_certificate, mode testing, max_age 604800 s" */
export function mtaStsLine(hosting: MtaStsHosting): string {
  return `${hosting.policy_domain} (${hosting.domain_id}): ${hosting.status}, mode ${hosting.mode}, max_age ${hosting.max_age} s`;
}
