/**
 * A Mailgun message (./message-schema.ts) as our send request (the body of POST /emails, before the send
 * request's schema parses it), or, with `recipient-variables`, as the items of a batch: one email per `to`
 * recipient with its own substitutions (./recipient-variables.ts). Pure; docs/compat.md, "Mailgun" has the
 * table of what maps to what.
 *
 * - `o:tag` T -> tag {name: "tag", value: T}; `v:<name>` V -> tag {name, value: V} (../provider-tags.ts, the
 *   doors' one rule; tags are on the record and in every webhook, as Mailgun's tags and user-variables are on
 *   its events);
 * - `h:Reply-To` -> reply_to; every other `h:<Name>` -> headers;
 * - `o:deliverytime` -> scheduled_at; `attachment` / `inline` files -> attachments (inline with content_id =
 *   the file name, as Mailgun's `cid:<filename>`);
 * - `template` -> template.id, the alias the Mailgun import gives that template (aliasFor, as
 *   shared/adapters/providers/mailgun.ts names it); `t:variables` -> template.variables, nested keys
 *   flattened with `_` as the import flattens `{{user.name}}` into `{{user_name}}`;
 * - the `X-Mailgun-On-Behalf-Of` header (a subaccount) -> tenant.
 */
import { aliasFor } from '#shared/domain/imports/convert-template';
import { ValidationError } from '#shared/domain/errors';
import { labelTags, MAX_TAGS, pairTags, tagsOverLimit, type Tag } from '../provider-tags';
import { addressesOf } from './address-list';
import type { Json, MailgunMessage } from './message-schema';
import { substitute, substituteDeep, substituteRecord, valuesFor } from './recipient-variables';

/** A file of the form (`attachment` or `inline`). */
export interface MailgunFile {
  field: 'attachment' | 'inline';
  filename: string;
  /** As the form gave it ('' when none). */
  contentType: string;
  data: Buffer;
}

/** What the request carries besides its fields. */
export interface MailgunContext {
  /** The path's `{domain}`. */
  domain: string;
  files: readonly MailgunFile[];
  /** `X-Mailgun-On-Behalf-Of`, when given. */
  onBehalfOf?: string;
}

/** Our send request, unparsed (sendRequestSchema's input). */
export type SendRequestInput = Record<string, unknown>;

export type MappedSend = { kind: 'single'; request: SendRequestInput } | { kind: 'batch'; items: SendRequestInput[] };

/** Most recipients of one batch send (our batch's size; Mailgun's is 1,000). */
export const MAX_BATCH_RECIPIENTS = 100;
/** Deepest nesting of t:variables flattened. */
const MAX_VARIABLE_DEPTH = 8;

const refuse = (field: string, message: string) => new ValidationError(message, { details: { fields: [{ field, message }] } });

/** Nested objects and arrays as flat keys (`user.name` -> `user_name`, `items[0]` -> `items_0`). */
export function flattenVariables(values: Readonly<Record<string, Json>>, prefix = '', depth = 0): Record<string, Json> {
  if (depth > MAX_VARIABLE_DEPTH) throw refuse('t:variables', `'t:variables' is nested more than ${MAX_VARIABLE_DEPTH} levels deep`);
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(values)) {
    const name = prefix ? `${prefix}_${key}` : key;
    if (value !== null && typeof value === 'object') {
      const entries = Array.isArray(value) ? Object.fromEntries(value.map((item, index) => [String(index), item])) : value;
      Object.assign(out, flattenVariables(entries, name, depth + 1));
    } else out[name] = value;
  }
  return out;
}

/** o:tag and v: as our tags (../provider-tags.ts: the doors' one rule); more than MAX_TAGS is a 400. */
function tagsOf(message: MailgunMessage): Tag[] {
  const tags = [...labelTags('tag', message.tags), ...pairTags(message.variables)];
  if (tagsOverLimit(tags) > 0)
    throw refuse('o:tag', `o:tag and v: give ${tags.length} tags; at most ${MAX_TAGS} are kept per email (each becomes a tag)`);
  return tags;
}

function attachmentsOf(files: readonly MailgunFile[]): SendRequestInput[] {
  return files.map((file) => ({
    filename: file.filename,
    ...(file.contentType ? { content_type: file.contentType } : {}),
    data: file.data.toString('base64'),
    ...(file.field === 'inline' ? { content_id: file.filename } : {}),
  }));
}

/** The one email (before any recipient substitution). */
function baseRequest(message: MailgunMessage, context: MailgunContext): SendRequestInput {
  const headers: Record<string, string> = {};
  let replyTo: string[] | undefined;
  for (const [name, value] of Object.entries(message.headers)) {
    if (name.toLowerCase() === 'reply-to') replyTo = addressesOf([value]);
    else headers[name] = value;
  }
  const tags = tagsOf(message);
  return {
    from: message.from,
    to: message.to,
    ...(message.cc.length ? { cc: message.cc } : {}),
    ...(message.bcc.length ? { bcc: message.bcc } : {}),
    ...(replyTo ? { reply_to: replyTo } : {}),
    ...(message.subject !== undefined ? { subject: message.subject } : {}),
    ...(message.text !== undefined ? { text: message.text } : {}),
    ...(message.html !== undefined ? { html: message.html } : {}),
    ...(tags.length ? { tags } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(message.deliveryTime !== undefined ? { scheduled_at: message.deliveryTime } : {}),
    ...(context.files.length ? { attachments: attachmentsOf(context.files) } : {}),
    ...(message.template !== undefined
      ? {
          template: {
            id: aliasFor({ source_id: `${context.domain}/${message.template}`, name: message.template, alias: message.template }),
            ...(message.templateVariables ? { variables: flattenVariables(message.templateVariables) } : {}),
          },
        }
      : {}),
    ...(context.onBehalfOf !== undefined ? { tenant: context.onBehalfOf } : {}),
    ...(message.trackOpens !== undefined ? { track_opens: message.trackOpens } : {}),
    ...(message.trackClicks !== undefined ? { track_clicks: message.trackClicks } : {}),
  };
}

/** One recipient's email of a batch: `to` is that recipient, every text substituted with its values (tags before the doors' tag rule). */
function itemFor(message: MailgunMessage, base: SendRequestInput, recipient: string, values: Record<string, Json>): SendRequestInput {
  const item: SendRequestInput = { ...base, to: [recipient] };
  for (const field of ['subject', 'text', 'html'] as const) {
    if (typeof base[field] === 'string') item[field] = substitute(base[field] as string, values);
  }
  if (base.headers) item.headers = substituteRecord(base.headers as Record<string, string>, values);
  const tags = tagsOf({
    ...message,
    tags: message.tags.map((tag) => substitute(tag, values)),
    variables: substituteRecord(message.variables, values),
  });
  if (tags.length) item.tags = tags;
  const template = base.template as { id: string; variables?: Record<string, Json> } | undefined;
  if (template?.variables) item.template = { ...template, variables: substituteDeep(template.variables, values) };
  return item;
}

export function toSendRequest(message: MailgunMessage, context: MailgunContext): MappedSend {
  const base = baseRequest(message, context);
  if (message.recipientVariables === undefined) return { kind: 'single', request: base };
  if (message.cc.length || message.bcc.length) {
    throw refuse(
      'recipient-variables',
      "'cc' and 'bcc' cannot be combined with 'recipient-variables' here: each 'to' recipient gets an email of its own; send the copies separately",
    );
  }
  if (context.files.length) {
    throw refuse(
      'recipient-variables',
      "'attachment' and 'inline' cannot be combined with 'recipient-variables' here (a batch carries no files)",
    );
  }
  if (message.to.length > MAX_BATCH_RECIPIENTS) {
    throw refuse(
      'to',
      `at most ${MAX_BATCH_RECIPIENTS} 'to' recipients with 'recipient-variables' (this one has ${message.to.length}); split the batch`,
    );
  }
  const all = message.recipientVariables;
  return { kind: 'batch', items: message.to.map((recipient) => itemFor(message, base, recipient, valuesFor(recipient, all))) };
}
