/** Response schemas of the received emails group (inbound email). */
import * as z from 'zod';
import type { toPublicReceivedEmail } from '#shared/domain/inbound/received-email';
import type { getReceivedEmail } from '#shared/usecases/inbound/received-emails';
import { describing, idOf, nullableTimestamp, timestamp } from '#shared/doors/openapi/common-schemas';

const authResult = (check: string) =>
  z
    .enum(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy'])
    .describe(`the ${check} verdict (temperror when it could not be checked)`);

const receivedAttachment = z.strictObject({
  id: z
    .string()
    .regex(/^att_\d+$/)
    .describe("the attachment's id in this message: att_<n>, n from 1 in the message's order"),
  filename: z.string().nullable().describe("the part's file name (RFC 2231 and RFC 2047 decoded); null when it has none"),
  content_type: z.string().describe('the MIME type (lower case)'),
  size: z.number().int().describe('bytes, decoded'),
  content_id: z.string().nullable().describe('the Content-ID as written (`<id>`); null when none'),
  content_disposition: z.enum(['attachment', 'inline']).describe('inline only when the part says so, else attachment'),
});

const receivedFields = {
  object: z.literal('received_email').describe('always `received_email`'),
  id: idOf('inb').describe("the received email's id (inb_...)"),
  status: z.literal('received').describe('always `received`'),
  from: z.string().describe('the From address as the sender wrote it (`Name <address>` or `address`)'),
  to: z.array(z.string()).describe('the To addresses (at most 100 kept)'),
  cc: z.array(z.string()).describe('the Cc addresses (at most 100 kept)'),
  reply_to: z.array(z.string()).describe('the Reply-To addresses (at most 100 kept)'),
  subject: z.string().describe('the Subject (at most 2,000 characters kept)'),
  message_id: z.string().nullable().describe('the Message-ID header (`<id>`); null when absent'),
  in_reply_to: z.string().nullable().describe('the In-Reply-To header; null when absent'),
  references: z.array(z.string()).describe('the message ids of the References header (at most 100 kept)'),
  date: nullableTimestamp.describe('the Date header (ISO 8601); null when absent or unreadable'),
  mail_from: z.string().describe("the envelope sender ('' for a bounce)"),
  rcpt_to: z.array(z.string()).describe("the envelope's recipients of this account"),
  plus_address: z
    .string()
    .nullable()
    .describe('the part after `+` in the first recipient that has one (`reply+ticket-42@` -> `ticket-42`); null otherwise'),
  spam_status: z
    .enum(['not_spam', 'spam'])
    .describe(
      'spam when the From domain fails DMARC with policy quarantine or reject, or SPF fails and no DKIM signature passes (no content scanning)',
    ),
  authentication: z
    .strictObject({
      spf: z
        .strictObject({
          result: authResult('SPF'),
          domain: z.string().nullable().describe("the domain checked: the envelope sender's (the EHLO name for a bounce); null when none"),
        })
        .describe('SPF of the connecting address'),
      dkim: z
        .array(
          z.strictObject({
            result: authResult('DKIM'),
            domain: z.string().nullable().describe('the signing domain (d=); null when missing'),
            selector: z.string().nullable().describe('the selector (s=); null when missing'),
            aligned: z.boolean().describe('whether the signing domain aligns with the From domain (for DMARC)'),
          }),
        )
        .describe('one entry per DKIM signature (the first 10); [] when unsigned or not checked'),
      dmarc: z
        .strictObject({
          result: authResult('DMARC'),
          domain: z.string().nullable().describe('the From domain the policy applies to; null when none'),
          policy: z.enum(['none', 'quarantine', 'reject']).nullable().describe("the domain's published policy; null when none"),
        })
        .describe('DMARC of the From domain'),
      spam_reasons: z.array(z.string()).describe('why spam_status is spam ([] when it is not)'),
    })
    .describe('the SPF, DKIM and DMARC verdicts, checked when the message was received'),
  auto_submitted: z
    .string()
    .nullable()
    .describe(
      "the Auto-Submitted value when not `no`, or auto-generated for other machine mail; null for a person's mail (never auto-answer when set)",
    ),
  stripped_text: z.string().nullable().describe('the text without quoted replies and signature'),
  attachment_count: z.number().int().describe('how many attachments the message has (all of them, listed or not)'),
  attachments: z.array(receivedAttachment).describe('metadata of the attachments (the first 100)'),
  size: z.number().int().describe('bytes of the raw message'),
  tls: z.boolean().describe('whether the sending server used STARTTLS'),
  parse_error: z
    .string()
    .nullable()
    .describe('why the message could not be read whole (what could be read is recorded); null when it could'),
  truncated: z.boolean().describe('true when address or reference lists (100 entries) or the subject (2,000 characters) were cut'),
  tenant: z.string().nullable().describe("the receiving domain's tenant (external_id); null for an account-wide domain"),
  received_at: timestamp.describe('when the MX listener received it (ISO 8601)'),
  content: z
    .enum(['kept', 'not_kept'])
    .describe(
      'content redaction (docs/redaction.md): `not_kept` when the receiving domain has `inbound_store_content: false`: the record is metadata only (no subject, stripped text, bodies, headers nor attachment list; `attachment_count` and `size` stay) and the raw message was deleted once recorded',
    ),
};

export const receivedEmailSummarySchema = describing<ReturnType<typeof toPublicReceivedEmail>>()(z.strictObject(receivedFields));

export const receivedEmailSchema = describing<Awaited<ReturnType<typeof getReceivedEmail>>>()(
  z.strictObject({
    ...receivedFields,
    html: z.string().nullable().describe('inline when the bodies are small enough; else null and html_url is set'),
    text: z
      .string()
      .nullable()
      .describe('the text body, inline when the bodies are small enough; else null and text_url is set (null when absent)'),
    html_url: z
      .string()
      .nullable()
      .describe(
        'a presigned GET URL (1 hour) for a large body: a download (Content-Disposition: attachment) of its source as text/plain, never rendered',
      ),
    text_url: z.string().nullable().describe('a presigned GET URL (1 hour) for a large text body, a download (text/plain); null otherwise'),
    headers: z
      .array(
        z.strictObject({
          name: z.string().describe('the field name as written'),
          value: z.string().describe('the value, unfolded and trimmed'),
        }),
      )
      .describe('every header field of the message, in order (repeated fields kept)'),
    attachments: z
      .array(
        receivedAttachment.extend({
          content: z.string().nullable().describe('the bytes in base64 when small enough; else null and download_url is set'),
          download_url: z
            .string()
            .nullable()
            .describe(
              'a presigned GET URL (1 hour) when content is null, a download (Content-Disposition: attachment; an HTML, XML, SVG or script type served as application/octet-stream); else null',
            ),
          expires_at: nullableTimestamp.describe('when download_url stops working (ISO 8601); null without one'),
        }),
      )
      .describe('the attachments (the first 100), with their bytes or a link'),
    raw: z
      .strictObject({
        download_url: z.string().describe('a presigned GET URL (1 hour) of the message as stored (with our Received: field)'),
        expires_at: timestamp.describe('when download_url stops working (ISO 8601)'),
        size: z.number().int().describe('bytes'),
      })
      .nullable()
      .describe('the raw message (RFC 5322); null when its content was not kept (`content: not_kept`)'),
  }),
);

export const receivedEmailEnvelopeSchema = z.strictObject({ received_email: receivedEmailSchema.describe('the received email, whole') });
