/**
 * The suppression tools (docs/suppressions.md): list, add and remove addresses the service will not send
 * to, account-wide or a tenant's, and (with category) recipients' opt-outs of product or newsletter mail.
 * Scopes: suppressions:write (or mail:admin, full); listing also account:read.
 */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../../api/client';
import { okResult, runTool } from '../result';
import { pageFields } from './emails';

interface Suppression {
  email?: string;
  reason?: string;
  category?: string;
  tenant?: string | null;
  created_at?: string;
}

const tenant = z.string().optional().describe("the tenant's list (external_id or id) instead of the account-wide list");
const category = z
  .enum(['product', 'newsletter'])
  .optional()
  .describe("a category opt-out instead of a suppression: the address stops getting that category's mail only");

function line(entry: Suppression): string {
  return `- ${entry.email}${entry.reason ? ` (${entry.reason})` : ''}${entry.category ? ` opted out of ${entry.category}` : ''}${entry.tenant ? ` tenant ${entry.tenant}` : ''}`;
}

export function registerSuppressionTools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'list_suppressions',
    {
      title: 'List suppressed addresses',
      description:
        "List the suppression list, newest first (GET /suppressions): addresses the service will not send to, with why (bounce, complaint, unsubscribe, manual). With category, list that category's opt-outs instead; with email, look one address up. Needs suppressions:write, account:read, mail:admin or full.",
      inputSchema: {
        ...pageFields,
        email: z.string().optional().describe('only this address'),
        reason: z.string().optional().describe('only this reason, e.g. bounce, complaint, unsubscribe, manual'),
        tenant,
        category,
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const page = await api.get<{
          suppressions?: Suppression[];
          category_opt_outs?: Suppression[];
          has_more: boolean;
          next_cursor: string | null;
        }>('/suppressions', { ...args });
        const entries = args.category ? (page.category_opt_outs ?? []) : (page.suppressions ?? []);
        const lines = [
          `${entries.length} ${args.category ? `${args.category} opt-outs` : 'suppressed addresses'}${page.has_more ? ` (more: cursor ${page.next_cursor})` : ''}.`,
          ...entries.map(line),
        ];
        return okResult(lines.join('\n'), { ...page });
      }),
  );

  server.registerTool(
    'add_suppressions',
    {
      title: 'Suppress addresses',
      description:
        'Add one or more addresses (up to 1000) to the suppression list (POST /suppressions, reason manual): sends to them are then refused (422). With category, opt them out of product or newsletter mail only. Needs suppressions:write, mail:admin or full.',
      inputSchema: {
        emails: z.union([z.string(), z.array(z.string()).min(1).max(1000)]).describe('an address or a list of 1-1000 addresses'),
        tenant,
        category,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const body = {
          ...(Array.isArray(args.emails) ? { emails: args.emails } : { email: args.emails }),
          tenant: args.tenant,
          category: args.category,
        };
        const answer = await api.post<{ created: string[]; existing: string[] }>('/suppressions', body);
        const existing = answer.existing.length > 0 ? ` Already listed: ${answer.existing.join(', ')}.` : '';
        return okResult(`${answer.created.length} added, ${answer.existing.length} already listed.${existing}`, { ...answer });
      }),
  );

  server.registerTool(
    'remove_suppression',
    {
      title: 'Remove a suppression',
      description:
        "Remove an address from the suppression list (DELETE /suppressions?email=) so it can receive mail again; with category, remove its opt-out of that category (re-subscribe). Only do this when the recipient asked for mail again: suppressions protect the sender's reputation. 404 not_found when the address is not listed. Needs suppressions:write, mail:admin or full.",
      inputSchema: { email: z.string().min(1).describe('the address to remove'), tenant, category },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const answer = await api.request<Record<string, unknown>>('DELETE', '/suppressions', {
          query: { email: args.email, tenant: args.tenant, category: args.category },
        });
        return okResult(`${args.email} removed from the ${args.category ? `${args.category} opt-outs` : 'suppression list'}.`, answer);
      }),
  );
}
