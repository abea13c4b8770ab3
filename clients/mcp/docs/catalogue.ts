/**
 * The docs an agent gets as MCP resources (`docs://<name>`, text/markdown): the pages of docs/ that explain
 * what the tools do and the rules behind them. One list for both transports: stdio reads them from the
 * repository at runtime (./from-files.ts), the Lambda from the generated module (./bundled.generated.ts,
 * written by ./write-bundled.ts).
 */

export interface DocPage {
  /** The file's name in docs/ without .md, and the resource's `docs://<name>`. */
  name: string;
  title: string;
  description: string;
}

export const DOC_PAGES: readonly DocPage[] = [
  { name: 'mcp', title: 'This MCP server', description: 'The tools, resources, configuration and security notes of this server.' },
  {
    name: 'api',
    title: 'HTTP API',
    description: 'Authentication, scopes, errors, lists, idempotency, limits and the rules of sending (POST /emails).',
  },
  {
    name: 'domains',
    title: 'Sending domains',
    description: 'Adding a domain, the DNS records to publish, verification and what each record status means.',
  },
  { name: 'suppressions', title: 'Suppressions', description: 'Suppression lists and category opt-outs: who is not sent to and why.' },
  { name: 'webhooks', title: 'Webhooks', description: 'Event types, payloads, signatures, retries and the delivery log.' },
  {
    name: 'templates',
    title: 'Templates',
    description: 'Template syntax, variables, publishing, rendering previews and sending with a template.',
  },
  { name: 'attachments', title: 'Attachments', description: 'Inline attachments and uploads, limits and blocked types.' },
  { name: 'tenants', title: 'Tenants', description: 'Sending on behalf of your customers: tenants, their keys, domains, limits.' },
  { name: 'tracking', title: 'Tracking', description: 'Open and click tracking, unsubscribe links.' },
  {
    name: 'automations',
    title: 'Automations and events',
    description: 'Automations and POST /events (custom events that start and resume runs).',
  },
];

/** A page's text by name: from the repository's files (stdio) or the bundled copy (Lambda). */
export type DocsSource = (name: string) => Promise<string>;
