/**
 * The MCP server: mailservice's tools and docs for AI agents (docs/mcp.md). A client of the public HTTP API
 * (clients/api/client.ts) with the caller's own key, so every scope, limit and rule applies as to any other
 * caller. The same server runs over stdio (./stdio.ts) and over streamable HTTP (functions/api/mcp/app.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../api/client';
import type { DocsSource } from './docs/catalogue';
import { registerDocsResources } from './resources';
import { registerDomainHealthTools } from './tools/domain-health';
import { registerDomainTools } from './tools/domains';
import { registerEmailTools } from './tools/emails';
import { registerEventTools } from './tools/events';
import { registerInboundRoutesTools } from './tools/inbound-routes';
import { registerLinkDomainTools } from './tools/link-domain';
import { registerMtaStsTools } from './tools/mta-sts';
import { registerSuppressionTools } from './tools/suppressions';
import { registerTemplateTools } from './tools/templates';
import { registerValidationTools } from './tools/validations';
import { registerWebhookTools } from './tools/webhooks';

export const SERVER_INFO = { name: 'mailservice', version: '0.1.0' } as const;

const INSTRUCTIONS = [
  'Send and track transactional email through mailservice.',
  'Send with send_email (or send_batch), then follow delivery with get_email (status: queued, sent, delivered, bounced, failed...).',
  'Before mailing an address you have not mailed before, check it with validate_email (act on its verdict: invalid, do not send; risky, ask first).',
  "To send from your own domain: add_domain, publish the DNS records it returns, then verify_domain; until then the sandbox sender <anything>@sandbox.mailservice.dev sends only to the account's own address.",
  'When mail from a domain is refused or lands in spam, read get_domain_health (the records to publish) and get_dmarc_figures (who sends as the domain and whether it passes DMARC).',
  'To choose what happens to mail a receiving domain gets (which webhooks hear of it, store only, or refuse it), read get_inbound_routes, then send the whole ordered list to set_inbound_routes.',
  'To make senders deliver to a receiving domain only over TLS, host its MTA-STS policy with host_mta_sts_policy (mode testing first) and publish the records get_mta_sts_policy lists, in order, as they appear.',
  "To have a domain's tracked links, pixels and unsubscribe links on its own name (links.<domain>), set it up with set_up_link_domain and publish the records get_link_domain lists, in order, as they appear.",
  "Errors come back as tool results with isError, the API's message, code and hint: fix the named field and retry; 403 insufficient_scope means this API key may not do that.",
  'The docs:// resources explain the rules (docs://api first).',
].join(' ');

export interface McpServerOptions {
  /** The API client, with the caller's key. */
  api: ApiClient;
  /** Where the docs resources are read from. */
  docs: DocsSource;
}

export function createMcpServer({ api, docs }: McpServerOptions): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  registerEmailTools(server, api);
  registerDomainTools(server, api);
  registerDomainHealthTools(server, api);
  registerMtaStsTools(server, api);
  registerLinkDomainTools(server, api);
  registerInboundRoutesTools(server, api);
  registerSuppressionTools(server, api);
  registerWebhookTools(server, api);
  registerTemplateTools(server, api);
  registerEventTools(server, api);
  registerValidationTools(server, api);
  registerDocsResources(server, docs);
  return server;
}
