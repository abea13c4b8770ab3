/**
 * The fields of a send (POST /emails, each item of POST /emails/batch) as a tool's input schema. Loose on
 * purpose: the API validates (one set of rules, docs/api.md), and its 400 comes back to the agent with the
 * field and what to write there. The descriptions are what an agent reads to fill them in.
 */
import * as z from 'zod';

const addresses = z.union([z.string(), z.array(z.string())]);

export const sendFields = {
  from: z
    .string()
    .optional()
    .describe(
      'Sender: "a@example.com" or "Name <a@example.com>", from a verified domain of the account, or the sandbox sender <anything>@sandbox.mailservice.dev (which may send only to the account\'s own address). Required unless the template has a from.',
    ),
  to: addresses.describe('Recipient address or list of addresses; to, cc and bcc together at most 50.'),
  subject: z.string().optional().describe('One line. Required unless a template gives it.'),
  html: z.string().optional().describe('HTML body. At least one of html and text, unless template is given.'),
  text: z.string().optional().describe('Plain-text body. At least one of html and text, unless template is given.'),
  cc: addresses.optional().describe('Cc address or list.'),
  bcc: addresses.optional().describe('Bcc address or list.'),
  reply_to: addresses.optional().describe('Reply-To address or list.'),
  tags: z
    .array(z.object({ name: z.string(), value: z.string() }))
    .optional()
    .describe('Up to 10 tags [{name, value}], each 1-256 of A-Za-z0-9_-; returned with the email and in webhook events.'),
  headers: z
    .record(z.string(), z.string())
    .optional()
    .describe('Custom headers {Name: value} (at most 50; transport headers such as To, From, List-Unsubscribe are refused).'),
  scheduled_at: z
    .string()
    .optional()
    .describe('ISO 8601 time with a zone, in the future, at most 365 days ahead: the email is stored as scheduled and sent then.'),
  category: z
    .enum(['transactional', 'product', 'newsletter'])
    .optional()
    .describe("transactional (default), product or newsletter: product and newsletter mail respect recipients' category opt-outs."),
  tenant: z.string().optional().describe('Send on behalf of a tenant (its external_id or id); only on accounts with tenants.'),
  template: z
    .object({
      id: z.string().describe('the alias of a published template (see list_templates)'),
      variables: z.record(z.string(), z.unknown()).optional().describe('values of its placeholders: strings, numbers, booleans or null'),
    })
    .optional()
    .describe('Send a published template instead of html/text.'),
  unsubscribe: z.boolean().optional().describe('Add managed one-click unsubscribe (List-Unsubscribe headers, {{unsubscribe_url}}).'),
  track_opens: z
    .boolean()
    .optional()
    .describe(
      "Open pixel on (true) or off (false) for this email, over the sending domain's open_tracking; omit to let the domain decide.",
    ),
  track_clicks: z
    .boolean()
    .optional()
    .describe(
      "Link tracking on (true) or off (false) for this email, over the sending domain's click_tracking; omit to let the domain decide.",
    ),
};

/** Attachments: single sends only (the API refuses them in batches and on scheduled sends). */
export const attachmentsField = z
  .array(
    z.object({
      filename: z.string().optional().describe('file name, e.g. report.pdf (required with data)'),
      data: z.string().optional().describe('the file in base64 (at most 10 MB decoded)'),
      attachment_id: z.string().optional().describe('instead of data: an upload from POST /attachments (att_...)'),
      content_type: z.string().optional().describe('MIME type; default from the extension'),
      content_id: z.string().optional().describe('makes it an inline part shown where the HTML says cid:<content_id>'),
    }),
  )
  .optional()
  .describe('Up to 10 attachments: inline (filename + base64 data) or an upload (attachment_id).');

export const idempotencyKeyField = z
  .string()
  .optional()
  .describe(
    'Optional Idempotency-Key (1-255 printable ASCII): a retry with the same key and body returns the first result instead of sending again. Use one when retrying after an error or timeout.',
  );

/** The request body of a send: the tool's arguments without undefined members and without the tool-only ones. */
export function sendBody(args: Record<string, unknown>, toolOnly: readonly string[] = ['idempotency_key']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([name, value]) => value !== undefined && !toolOnly.includes(name)));
}

/** Headers of a send carrying the optional Idempotency-Key. */
export function idempotencyHeaders(key: string | undefined): Record<string, string> {
  return key === undefined ? {} : { 'idempotency-key': key };
}
