/**
 * The domain tools (docs/domains.md): list, add, get and verify a sending domain, each showing the DNS
 * records to publish. Scopes: domains:write (or mail:admin, full); reading also account:read.
 */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../../api/client';
import { okResult, runTool } from '../result';
import { domainSummary, type DomainObject } from './domain-records';
import { pageFields } from './emails';
import { segment } from './path';

interface DomainList {
  domains: DomainObject[];
  has_more: boolean;
  next_cursor: string | null;
}

const domainId = { id: z.string().min(1).describe('the domain id, dom_... (see list_domains)') };

export function registerDomainTools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'list_domains',
    {
      title: 'List sending domains',
      description:
        "List the account's sending domains, newest first (GET /domains), with their status (pending, verified, failed). Page with cursor = next_cursor. Needs domains:write, account:read, mail:admin or full.",
      inputSchema: { ...pageFields, tenant: z.string().optional().describe("only this tenant's domains (external_id or id)") },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const page = await api.get<DomainList>('/domains', { limit: args.limit, cursor: args.cursor, tenant: args.tenant });
        const lines = [`${page.domains.length} domains${page.has_more ? ` (more: cursor ${page.next_cursor})` : ''}.`];
        for (const domain of page.domains) lines.push(`- ${domain.name} (${domain.id}): ${domain.status}`);
        return okResult(lines.join('\n'), { ...page });
      }),
  );

  server.registerTool(
    'add_domain',
    {
      title: 'Add a sending domain',
      description:
        'Add a domain to send from (POST /domains). Returns the domain (status pending) and the DNS records to publish at its DNS host (ownership TXT, DKIM TXT, return-path CNAME, SPF TXT, optional DMARC); once they are published, call verify_domain. Needs domains:write, mail:admin or full.',
      inputSchema: {
        name: z.string().min(1).describe('the domain name, e.g. example.com'),
        tenant: z.string().optional().describe("make it this tenant's domain (external_id or id)"),
        inbound_enabled: z.boolean().optional().describe('also receive mail at inbound.<domain> (adds an MX record)'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const { domain } = await api.post<{ domain: DomainObject }>('/domains', {
          name: args.name,
          tenant: args.tenant,
          inbound_enabled: args.inbound_enabled,
        });
        return okResult(domainSummary(domain), { domain });
      }),
  );

  server.registerTool(
    'get_domain',
    {
      title: 'Get a domain and its DNS records',
      description:
        'Get one domain (GET /domains/{id}): its status and each DNS record to publish with its own status and any message (e.g. how to merge SPF). Needs domains:write, account:read, mail:admin or full.',
      inputSchema: domainId,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const { domain } = await api.get<{ domain: DomainObject }>(`/domains/${segment(args.id)}`);
        return okResult(domainSummary(domain), { domain });
      }),
  );

  server.registerTool(
    'verify_domain',
    {
      title: 'Verify a domain',
      description:
        'Check the domain\'s DNS records now (POST /domains/{id} {"action": "verify"}) and return the domain with each record\'s status (verified, pending, not_found, invalid) and what to fix. Sends from the domain work once it is verified. Needs domains:write, mail:admin or full.',
      inputSchema: domainId,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const { domain } = await api.post<{ domain: DomainObject }>(`/domains/${segment(args.id)}`, { action: 'verify' });
        return okResult(domainSummary(domain), { domain });
      }),
  );
}
