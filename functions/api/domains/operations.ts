/** The operations of the domains group (Domains). */
import { createDomainSchema, listDomainsQuerySchema, updateDomainSchema } from '#shared/domain/domains/schemas';
import { pageQuerySchema } from '#shared/doors/http/pagination';
import * as ex from '#shared/doors/openapi/examples';
import { section } from '#shared/doors/openapi/operation';
import { domainActionRequestSchema, storeDnsProviderRequestSchema } from '#shared/doors/openapi/requests';
import { dnsProviderEnvelopeSchema, dnsProviderListSchema } from './dns-provider-schemas';
import { listOf, okSchema } from '#shared/doors/openapi/common-schemas';
import {
  dmarcFiguresSchema,
  domainActionResultSchema,
  domainEnvelopeSchema,
  domainHealthSchema,
  domainSchema,
  inboundRoutesViewSchema,
  mtaStsHostingDeletedSchema,
  linkDomainSchema,
  linkDomainDeletedSchema,
  mtaStsHostingSchema,
} from './schemas';
import { mtaStsInputSchema } from '#shared/domain/domains/mta-sts/policy';
import { dmarcFiguresQuerySchema } from '#shared/domain/dmarc/figures-query';
import { page } from '#shared/doors/openapi/page-description';
import { PLAN_NAMES, PLANS } from '#shared/domain/accounts/plans';
import { inboundRoutesSchema, MAX_FORWARD_ADDRESSES, MAX_INBOUND_ROUTES } from '#shared/domain/domains/inbound-routes';

// ---------------------------------------------------------------------------------------------------
// Domains

const domainRead = ['domains:write', 'account:read'] as const;

export const domainOps = section('domains', 'Domains', {
  createDomain: {
    method: 'post',
    creates: { param: 'id', at: 'domain.id' },
    path: '/domains',
    summary: 'Add a sending domain',
    description:
      'Returns the DNS records to publish (ownership, DKIM, return path, SPF, DMARC; with `inbound_enabled`, the MX of a receive-only subdomain). A domain claimed by another account is 409 with claim instructions.',
    auth: 'apiKey',
    scopes: ['domains:write'],
    body: { schema: createDomainSchema, example: { name: 'acme.com' } },
    responses: { 201: { description: 'The domain and its records.', schema: domainEnvelopeSchema, example: { domain: ex.exampleDomain } } },
    errors: {
      403: ['forbidden', 'tenants_not_enabled', 'plan_limit'],
      404: ['not_found'],
      409: ['conflict'],
      503: ['service_unavailable'],
    },
  },
  listDomains: {
    method: 'get',
    path: '/domains',
    summary: 'List domains',
    description: `${page('The domains')} With \`tenant\`, only that tenant's.`,
    auth: 'apiKey',
    scopes: [...domainRead],
    query: pageQuerySchema.extend(listDomainsQuerySchema.shape),
    responses: { 200: { description: 'A page of domains.', schema: listOf('domains', domainSchema) } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
  getDomain: {
    method: 'get',
    path: '/domains/{id}',
    summary: 'Retrieve a domain',
    auth: 'apiKey',
    scopes: [...domainRead],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: 'The domain and its records as last checked.', schema: domainEnvelopeSchema } },
  },
  getDomainHealth: {
    method: 'get',
    path: '/domains/{id}/health',
    summary: "A domain's health",
    description:
      "The domain's last stored health check (a domain is checked daily, within a minute of becoming verified, and by `POST /domains/{id}/health`; one never checked is checked now): SPF (one record, our include, no `+all`/`?all`, at most 10 DNS lookups), DKIM (our key published), DMARC (present, policy, reports, alignment), the MX of the receiving subdomain, MTA-STS, TLS-RPT and BIMI records. Each finding has its impact, status (`open`, or `fixed` for 7 days after a check found it gone), when it was first seen, the record to publish and its source. A failed lookup is a `dns_error` finding, not an error.",
    auth: 'apiKey',
    scopes: [...domainRead],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: "The domain's findings and a summary.", schema: domainHealthSchema } },
  },
  checkDomainHealth: {
    method: 'post',
    path: '/domains/{id}/health',
    summary: "Check a domain's health now",
    description:
      'Checks DNS now (6 or 7 queries, plus one per name the SPF record includes, each bounded in time: at most about 10 seconds), stores the result and answers it as `GET /domains/{id}/health` does. When a finding opened or was fixed since the last check, `domain.health_changed` fires.',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: "The domain's findings and a summary, just checked.", schema: domainHealthSchema } },
  },
  getDomainDmarc: {
    method: 'get',
    path: '/domains/{id}/dmarc',
    summary: "A domain's DMARC aggregate report figures",
    description:
      'What receivers reported about mail sent as the domain (docs/deliverability.md, "DMARC aggregate reports"): reports sent to its report address (PATCH /domains/{id} `dmarc_reports`) are read by the inbound worker and stored per day, reporter and source IP. Answers the totals, the service\'s sending (`ours`) against everything else (`others`: who else sends as you), one entry per UTC day, and the sources a page at a time, most messages first. `since`/`until` (UTC days, both included; default the last 30 days, at most 90).',
    auth: 'apiKey',
    scopes: [...domainRead],
    pathParams: { id: 'the domain id (dom_...)' },
    query: dmarcFiguresQuerySchema,
    responses: { 200: { description: "The domain's figures over the range.", schema: dmarcFiguresSchema } },
  },
  getDomainInboundRoutes: {
    method: 'get',
    path: '/domains/{id}/inbound-routes',
    summary: "A receiving domain's inbound routes",
    description:
      'The ordered routes of `inbound.<domain>` (docs/inbound.md, "Routes"): the first whose match holds for a recipient decides what happens to its mail. No routes: every recipient is recorded and published to every endpoint subscribed to email.received.',
    auth: 'apiKey',
    scopes: [...domainRead],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: 'The routes, in order.', schema: inboundRoutesViewSchema } },
  },
  putDomainInboundRoutes: {
    method: 'put',
    path: '/domains/{id}/inbound-routes',
    summary: "Set a receiving domain's inbound routes",
    description: `Replaces the whole ordered list (at most ${MAX_INBOUND_ROUTES}; \`[]\` removes them). Each route: \`match.recipient\` (\`billing\` with or without a +tag, \`support+*\` tagged only, \`team-*\` starts with, \`*\` every recipient), optionally \`match.sender\` (the envelope sender: an address or \`@example.org\`), and an \`action\`: \`webhooks\` (email.received to \`webhook_ids\` only, endpoints subscribed to it; without ids every such endpoint), \`store\` (recorded, no webhook), \`forward\` (recorded, no webhook, and sent on to \`to\`, at most ${MAX_FORWARD_ADDRESSES} addresses, through the send core From the domain itself with the original sender in Reply-To) or \`refuse\` (550 at RCPT TO with \`message\`; nothing stored). The MX listener applies a change within a second. The domain must receive mail (\`inbound_enabled\`): 409 otherwise. Naming endpoints takes a key of the whole account; a forward route, a key that may send from the domain (\`emails:send\`, the domain within its \`allowed_domains\`).`,
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    body: {
      schema: inboundRoutesSchema,
      example: {
        routes: [
          { match: { recipient: 'billing' }, action: { type: 'webhooks', webhook_ids: ['wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N'] } },
          { match: { recipient: '*', sender: '@spam.example' }, action: { type: 'refuse', message: 'Not accepted here.' } },
          { match: { recipient: 'noreply' }, action: { type: 'store' } },
          { match: { recipient: 'invoices' }, action: { type: 'forward', to: ['accounts@example.org'] } },
        ],
      },
    },
    responses: { 200: { description: 'The routes as set.', schema: inboundRoutesViewSchema } },
    errors: { 403: ['forbidden', 'insufficient_scope', 'domain_not_allowed'], 409: ['conflict'] },
  },
  getDomainMtaSts: {
    method: 'get',
    path: '/domains/{id}/mta-sts',
    summary: "The hosted MTA-STS policy of a domain's receiving subdomain",
    description:
      'The policy the service hosts for `inbound.<domain>` (docs/deliverability.md, "Hosted MTA-STS policy"): its status, the records to publish and what the last check found. 404 when none is hosted.',
    auth: 'apiKey',
    scopes: [...domainRead],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: 'The hosted policy.', schema: mtaStsHostingSchema } },
  },
  putDomainMtaSts: {
    method: 'put',
    path: '/domains/{id}/mta-sts',
    summary: "Host an MTA-STS policy for a domain's receiving subdomain",
    description:
      "Hosts `https://mta-sts.inbound.<domain>/.well-known/mta-sts.txt` (RFC 8461) naming the service's MX: the service requests the host's certificate (ACM, DNS-validated) and, once it is issued, serves the policy there. Publish the records the answer lists as they appear (the certificate's validation CNAME first; the host's CNAME once the certificate is issued; the TXT record that announces the policy). The domain must be verified and receive mail (`inbound_enabled`). Changing `mode` or `max_age` gives the policy a new id: publish the new TXT record. PUT again (same body) checks now. Use `testing` until the MX's certificate is valid for its name (docs/deliverability.md). An account hosts at most its plan's number of policies (" +
      PLAN_NAMES.map((plan) => `${plan} ${PLANS[plan].mtaStsPolicies}`).join(', ') +
      ': a new one past it is 403 `plan_limit`; a deleted one frees its place once its removal completes.',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    body: { schema: mtaStsInputSchema, example: { mode: 'testing' } },
    responses: { 200: { description: 'The hosted policy, after its next step.', schema: mtaStsHostingSchema } },
    errors: { 403: ['plan_limit'], 409: ['conflict'] },
  },
  deleteDomainMtaSts: {
    method: 'delete',
    path: '/domains/{id}/mta-sts',
    summary: 'Stop hosting the MTA-STS policy',
    description:
      "Stops serving the policy and deletes its host's custom domain name and certificate (within minutes). To withdraw a policy senders have cached (RFC 8461 section 8.3), PUT `mode: none` first and keep it hosted for `max_age`, then remove the TXT record and delete.",
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: 'Deleted.', schema: mtaStsHostingDeletedSchema } },
    errors: { 409: ['conflict'] },
  },
  getDomainLinkDomain: {
    method: 'get',
    path: '/domains/{id}/link-domain',
    summary: "A domain's link domain",
    description:
      'The link domain `links.<domain>` (docs/tracking.md, "Link domains"): its status, the records to publish and what the last check found. 404 when the domain has none.',
    auth: 'apiKey',
    scopes: [...domainRead],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: 'The link domain.', schema: linkDomainSchema } },
  },
  putDomainLinkDomain: {
    method: 'put',
    path: '/domains/{id}/link-domain',
    summary: 'Serve the tracked links of a domain from links.<domain>',
    description:
      "Serves the domain's click links, open pixels and unsubscribe links from `https://links.<domain>` instead of the service's link host: the service requests the host's certificate (ACM, DNS-validated) and, once it is issued, maps the host to the links API. Publish the records the answer lists as they appear (the certificate's validation CNAME first, then the host's CNAME). Once the CNAME is found the link domain is `active` and emails sent from the domain link to it; until then, and whenever the CNAME is gone at a daily check, they link to the service's host. The domain must be verified. PUT again after `failed` starts over; otherwise it checks now (after publishing a record) and answers the link domain as it stands. An account has at most its plan's number of link domains (" +
      PLAN_NAMES.map((plan) => `${plan} ${PLANS[plan].linkDomains}`).join(', ') +
      ': a new one past it is 403 `plan_limit`; a deleted one frees its place once its removal completes.',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: 'The link domain.', schema: linkDomainSchema } },
    errors: { 403: ['plan_limit'], 409: ['conflict'] },
  },
  deleteDomainLinkDomain: {
    method: 'delete',
    path: '/domains/{id}/link-domain',
    summary: 'Stop serving links from links.<domain>',
    description:
      "The domain's emails link to the service's link host again at once; the host's custom domain name and certificate are deleted within minutes. Links in emails already sent under links.<domain> stop working once its CNAME or the link domain is gone: keep both while they matter.",
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: 'Deleted.', schema: linkDomainDeletedSchema } },
    errors: { 409: ['conflict'] },
  },
  updateDomain: {
    method: 'patch',
    path: '/domains/{id}',
    summary: 'Change delivery settings and receiving',
    description:
      'Tracking, `tls_mode`, and `inbound_enabled`: `true` adds the receiving subdomain `inbound.<domain>` and its MX record (pending until a verify finds it), `false` removes both and stops receiving (docs/inbound.md). `inbound_store_content: false`: received mail is recorded without its content (docs/redaction.md). `dmarc_reports: {enabled, address?}`: DMARC aggregate reports read at an address on a receiving subdomain of the account (default `dmarc@inbound.<domain>`), named in the suggested DMARC record\'s rua= (docs/deliverability.md, "DMARC aggregate reports").',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    body: {
      schema: updateDomainSchema,
      example: { open_tracking: true, click_tracking: true, tls_mode: 'enforced', inbound_enabled: true },
    },
    responses: { 200: { description: 'The domain after the change.', schema: domainEnvelopeSchema } },
    errors: { 409: ['conflict'], 502: ['upstream_error'], 503: ['service_unavailable'] },
  },
  deleteDomain: {
    method: 'delete',
    path: '/domains/{id}',
    summary: 'Delete a domain',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: 'Deleted (its SES identity too).', schema: okSchema } },
    errors: { 502: ['upstream_error'], 503: ['service_unavailable'] },
  },
  domainAction: {
    method: 'post',
    path: '/domains/{id}',
    summary: 'Verify a domain, or apply its DNS records',
    description:
      '`{"action": "verify"}` checks DNS (and that the service can sign with the domain\'s DKIM key). `{"action": "apply", "provider": "route53" | "cloudflare", "credentials"?}` writes the records at the DNS host first (credentials of this request, else stored ones, else the service role for Route 53), then verifies.',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    body: {
      schema: domainActionRequestSchema,
      decodedBy: "its handler: by `action`, then with that action's schema",
      example: { action: 'verify' },
    },
    responses: { 200: { description: 'The domain after the check (and what apply wrote).', schema: domainActionResultSchema } },
    errors: { 409: ['conflict'], 422: ['validation_error'], 502: ['upstream_error'], 503: ['service_unavailable'] },
  },
  listDnsProviders: {
    method: 'get',
    path: '/dns-providers',
    summary: 'List stored DNS host credentials',
    auth: 'apiKey',
    scopes: ['domains:write'],
    responses: { 200: { description: 'The stored credentials (never their secrets).', schema: dnsProviderListSchema } },
    errors: { 403: ['forbidden'] },
  },
  storeDnsProvider: {
    method: 'put',
    path: '/dns-providers/{provider}',
    summary: 'Store DNS host credentials for apply',
    description: 'Sealed at rest and never returned.',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { provider: 'route53 or cloudflare' },
    body: {
      schema: storeDnsProviderRequestSchema,
      decodedBy: 'its handler: with the schema of the provider in the path (an unknown provider is 404 first)',
      example: { credentials: { api_token: 'cf-token-xxxxxxxx' } },
    },
    responses: { 200: { description: 'Stored.', schema: dnsProviderEnvelopeSchema } },
    errors: { 403: ['forbidden'] },
  },
  deleteDnsProvider: {
    method: 'delete',
    path: '/dns-providers/{provider}',
    summary: 'Delete stored DNS host credentials',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { provider: 'route53 or cloudflare' },
    responses: { 200: { description: 'Deleted.', schema: okSchema } },
    errors: { 403: ['forbidden'] },
  },
});
