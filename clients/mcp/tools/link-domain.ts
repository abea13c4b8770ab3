/**
 * The link domain tools (docs/tracking.md, "Link domains"): read a domain's link domain `links.<domain>` and the
 * records to publish for it (GET /domains/{id}/link-domain), ask for it or check it now (PUT, no body), stop it
 * (DELETE). Each takes the domain's id or its name. Scopes: reading domains:write, account:read, mail:admin or
 * full; setting up and stopping domains:write, mail:admin or full.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../../api/client';
import {
  getLinkDomain,
  LINK_DOMAIN_RECORD_PURPOSES,
  linkDomainLine,
  setUpLinkDomain,
  stopLinkDomain,
  type LinkDomain,
} from '../../api/link-domain';
import { okResult, runTool } from '../result';
import { domainArg as domain, domainIdOf } from './domain-ref';
import { recordLines, recordsExplained } from './hosted-records';

/** What each record is for, for the tools' descriptions. */
const RECORDS_EXPLAINED = recordsExplained(LINK_DOMAIN_RECORD_PURPOSES);

/** The status line, the base URL and message, then each record: what it is for, whether found, what to publish. */
export function linkDomainSummary(linkDomain: LinkDomain): string {
  const lines = [
    `Link domain ${linkDomainLine(linkDomain)}.`,
    `Base URL: ${linkDomain.base_url} (the domain's tracked links, pixels and unsubscribe links point there once active).`,
  ];
  if (linkDomain.message) lines.push(`Message: ${linkDomain.message}`);
  if (linkDomain.next_check_at) lines.push(`Next check: ${linkDomain.next_check_at}.`);
  if (linkDomain.records.length === 0)
    lines.push('No record to publish yet: the certificate_validation record is listed within a minute (get_link_domain).');
  else lines.push('Records to publish, in order:', ...recordLines(linkDomain.records));
  return lines.join('\n');
}

export function registerLinkDomainTools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'get_link_domain',
    {
      title: "Get a domain's link domain",
      description: `Get the domain's link domain links.<domain> (GET /domains/{id}/link-domain): where its click links, open pixels and unsubscribe links point once it is active instead of the service's link host. Answers its status (pending_certificate: publish certificate_validation; pending_dns: the host is served, publish link_host; active: the domain's emails link to it; failed: see message, set it up again to start over), base URL, a message saying what happens next or what to do, and the records to publish, each verified or pending with what the last check found. ${RECORDS_EXPLAINED} 404 not_found when the domain has none (set_up_link_domain asks for one). Needs domains:write, account:read, mail:admin or full.`,
      inputSchema: { domain },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const linkDomain = await getLinkDomain(api, await domainIdOf(api, args.domain));
        return okResult(linkDomainSummary(linkDomain), { ...linkDomain });
      }),
  );

  server.registerTool(
    'set_up_link_domain',
    {
      title: 'Set up or check a link domain',
      description: `Ask for the domain's link domain links.<domain> (PUT /domains/{id}/link-domain, no arguments but the domain). The domain must be verified, else 400 validation_error; past the plan's number of link domains, 403 plan_limit. A new one starts pending_certificate: within a minute the certificate_validation record is listed (get_link_domain); publish each record as it appears. Calling again after publishing a record checks now; after failed it starts over. Until it is active the domain's emails keep linking to the service's link host. ${RECORDS_EXPLAINED} Needs domains:write, mail:admin or full.`,
      inputSchema: { domain },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const linkDomain = await setUpLinkDomain(api, await domainIdOf(api, args.domain));
        return okResult(linkDomainSummary(linkDomain), { ...linkDomain });
      }),
  );

  server.registerTool(
    'stop_link_domain',
    {
      title: 'Stop a link domain',
      description:
        "Stop the domain's link domain (DELETE /domains/{id}/link-domain): the domain's emails link to the service's link host again at once; the host's certificate and custom domain name are deleted within minutes, so links already sent under links.<domain> stop working. 404 not_found when the domain has none. Needs domains:write, mail:admin or full.",
      inputSchema: { domain },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const deleted = await stopLinkDomain(api, await domainIdOf(api, args.domain));
        return okResult(
          `Stopped the link domain of ${deleted.domain_id}: its emails link to the service's link host again; the host's certificate and custom domain name are deleted within minutes.`,
          { ...deleted },
        );
      }),
  );
}
