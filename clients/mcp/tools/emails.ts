/**
 * The email tools: send one (POST /emails), send a batch (POST /emails/batch), get one with its timeline
 * (GET /emails/{id}), list (GET /emails with the cursor). Scopes: emails:send (or mail:admin, full); reading also
 * account:read.
 */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../../api/client';
import { okResult, runTool } from '../result';
import { emailSummary, emailTimeline, type EmailRecord } from './email-timeline';
import { segment } from './path';
import { attachmentsField, idempotencyHeaders, idempotencyKeyField, sendBody, sendFields } from './send-fields';

interface SendAnswer {
  id: string;
  status?: string;
  [field: string]: unknown;
}

interface BatchAnswer {
  data: { id: string | null; status?: string; error?: { message?: string } }[];
  [field: string]: unknown;
}

interface EmailList {
  emails: EmailRecord[];
  has_more: boolean;
  next_cursor: string | null;
}

export const pageFields = {
  limit: z.number().int().min(1).max(100).optional().describe('page size, 1-100 (default 25)'),
  cursor: z.string().optional().describe('next_cursor of the previous page, unchanged'),
};

export function registerEmailTools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'send_email',
    {
      title: 'Send an email',
      description:
        'Send one email (POST /emails). Give from, to, subject and html and/or text, or a published template. Returns the email id (msg_...) and status (queued, or scheduled with scheduled_at); delivery happens moments later: follow it with get_email. Needs a key with emails:send, mail:admin or full.',
      inputSchema: { ...sendFields, attachments: attachmentsField, idempotency_key: idempotencyKeyField },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const answer = await api.post<SendAnswer>('/emails', sendBody(args), idempotencyHeaders(args.idempotency_key));
        const to = Array.isArray(args.to) ? args.to.join(', ') : args.to;
        return okResult(`Email ${answer.id} accepted (${answer.status ?? 'queued'}) to ${to}. Check delivery with get_email.`, answer);
      }),
  );

  server.registerTool(
    'send_batch',
    {
      title: 'Send a batch of emails',
      description:
        'Send up to 100 emails in one call (POST /emails/batch), each with the fields of send_email except attachments. Results are index-aligned: data[i] is {id, status} or, with validation "permissive" (the default), {id: null, status: "failed", error} for an invalid item; "strict" refuses the whole batch if any item is invalid. Needs emails:send, mail:admin or full.',
      inputSchema: {
        emails: z.array(z.object(sendFields)).min(1).max(100).describe('1-100 emails, each as for send_email (no attachments)'),
        validation: z
          .enum(['strict', 'permissive'])
          .optional()
          .describe(
            'strict: refuse the whole batch when any item is invalid; permissive (default): send the valid ones, report the others',
          ),
        idempotency_key: idempotencyKeyField,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const headers = {
          ...idempotencyHeaders(args.idempotency_key),
          ...(args.validation ? { 'x-batch-validation': args.validation } : {}),
        };
        const answer = await api.post<BatchAnswer>('/emails/batch', { emails: args.emails.map((email) => sendBody(email)) }, headers);
        const accepted = answer.data.filter((item) => item.id !== null).length;
        const failed = answer.data.length - accepted;
        return okResult(
          `Batch: ${accepted} of ${answer.data.length} emails accepted${failed > 0 ? `, ${failed} failed (see data[i].error)` : ''}.`,
          answer,
        );
      }),
  );

  server.registerTool(
    'get_email',
    {
      title: 'Get an email and its timeline',
      description:
        'Get one email by id (GET /emails/{id}): its status (queued, scheduled, sent, delivered, bounced, failed, cancelled), last_event (also delivery_delayed, complained, suppressed), bounce reason, and a timeline of what happened when. Needs emails:send, account:read, mail:admin or full.',
      inputSchema: { id: z.string().min(1).describe('the email id, msg_...') },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const { email } = await api.get<{ email: EmailRecord }>(`/emails/${segment(args.id)}`);
        const timeline = emailTimeline(email);
        const lines = [
          emailSummary(email),
          ...timeline.map((entry) => `- ${entry.at} ${entry.event}${entry.detail ? ` (${entry.detail})` : ''}`),
        ];
        return okResult(lines.join('\n'), { email, timeline });
      }),
  );

  server.registerTool(
    'list_emails',
    {
      title: 'List emails',
      description:
        "List the account's emails, newest first (GET /emails), a page at a time: pass next_cursor back as cursor while has_more is true. The listing is eventually consistent (an email sent a moment ago may take a moment to appear). Needs emails:send, account:read, mail:admin or full.",
      inputSchema: { ...pageFields, tenant: z.string().optional().describe("only this tenant's emails (external_id or id)") },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const page = await api.get<EmailList>('/emails', { limit: args.limit, cursor: args.cursor, tenant: args.tenant });
        const lines = [`${page.emails.length} emails${page.has_more ? ` (more: cursor ${page.next_cursor})` : ''}.`];
        for (const email of page.emails)
          lines.push(
            `- ${email.id} ${email.status} ${email.created_at ?? ''} to ${Array.isArray(email.to) ? email.to.join(', ') : email.to}: "${email.subject ?? ''}"`,
          );
        return okResult(lines.join('\n'), { ...page });
      }),
  );
}
