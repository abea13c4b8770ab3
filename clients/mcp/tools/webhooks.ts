/**
 * The webhook tools (docs/webhooks.md): list endpoints, create one, rotate one's signing secret. A signing
 * secret is returned once, at creation or rotation, and the summary says so. Scopes: webhooks:write (or mail:admin, full); listing also account:read.
 */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../../api/client';
import { okResult, runTool } from '../result';
import { rotateWebhookSecretSchema } from '#shared/domain/webhooks/secret-rotation';
import { pageFields } from './emails';
import { segment } from './path';

interface Webhook {
  id?: string;
  url?: string;
  events?: string[];
  enabled?: boolean;
  tenants?: string[];
  previous_secret_expires_at?: string | null;
}

function line(webhook: Webhook): string {
  return `- ${webhook.id} ${webhook.url} ${webhook.enabled === false ? '(disabled) ' : ''}events: ${(webhook.events ?? []).join(', ')}${webhook.tenants?.length ? `; tenants: ${webhook.tenants.join(', ')}` : ''}`;
}

export function registerWebhookTools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'list_webhooks',
    {
      title: 'List webhook endpoints',
      description:
        "List the account's webhook endpoints (GET /webhooks): url, subscribed events, enabled, tenant filter. Needs webhooks:write, account:read, mail:admin or full.",
      inputSchema: pageFields,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const page = await api.get<{ webhooks: Webhook[]; has_more: boolean; next_cursor: string | null }>('/webhooks', {
          limit: args.limit,
          cursor: args.cursor,
        });
        const lines = [
          `${page.webhooks.length} webhook endpoints${page.has_more ? ` (more: cursor ${page.next_cursor})` : ''}.`,
          ...page.webhooks.map(line),
        ];
        return okResult(lines.join('\n'), { ...page });
      }),
  );

  server.registerTool(
    'create_webhook',
    {
      title: 'Create a webhook endpoint',
      description:
        'Create a webhook endpoint (POST /webhooks): the service POSTs signed events (email.sent, email.delivered, email.bounced, email.complained, email.opened, email.clicked, email.failed, email.suppressed, ...) to the https URL. Returns the endpoint and its signing secret (whsec_..., shown only this once: give it to the user to store). At most 20 endpoints. Needs webhooks:write, mail:admin or full.',
      inputSchema: {
        url: z.string().min(1).describe('an absolute https:// URL reachable on the public internet'),
        events: z
          .array(z.string())
          .min(1)
          .max(100)
          .optional()
          .describe('event types to receive, e.g. ["email.delivered", "email.bounced"]; default: every type'),
        tenants: z.array(z.string()).max(98).optional().describe("only these tenants' email events (external_ids or ids)"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const answer = await api.post<{ webhook: Webhook; secret: string }>('/webhooks', {
          url: args.url,
          events: args.events,
          tenants: args.tenants,
        });
        return okResult(
          `Webhook ${answer.webhook.id} created for ${answer.webhook.url}. Its signing secret (shown only now) is ${answer.secret}.`,
          { ...answer },
        );
      }),
  );

  server.registerTool(
    'rotate_webhook_secret',
    {
      title: "Rotate a webhook endpoint's signing secret",
      description:
        'Give a webhook endpoint a new signing secret (POST /webhooks/{id}/secret), e.g. after a leak. Returns the new secret (whsec_..., shown only this once: give it to the user to store). During the overlap (overlap_seconds, default a day, at most 7 days; 0 stops the previous secret at once) every delivery is signed with both secrets, so the receiver can switch without losing an event. Needs webhooks:write, mail:admin or full.',
      inputSchema: {
        id: z.string().min(1).describe('the endpoint id (wh_...)'),
        overlap_seconds: rotateWebhookSecretSchema.shape.overlap_seconds,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const answer = await api.post<{ webhook: Webhook; secret: string }>(
          `/webhooks/${segment(args.id)}/secret`,
          args.overlap_seconds === undefined ? {} : { overlap_seconds: args.overlap_seconds },
        );
        const until = answer.webhook.previous_secret_expires_at;
        return okResult(
          `Webhook ${answer.webhook.id} has a new signing secret (shown only now): ${answer.secret}. ${
            until ? `The previous secret also signs every delivery until ${until}.` : 'The previous secret no longer signs.'
          }`,
          { ...answer },
        );
      }),
  );
}
