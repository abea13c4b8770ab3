/**
 * A SendGrid mail/send body (./request-schema.ts, parsed) -> our send requests: one POST /emails body per
 * personalization (each personalization is one email at SendGrid too), for the send core to validate and
 * send (shared/domain/emails/send-request.ts is the one validation of addresses, headers, attachments...).
 * Pure: the clock's `now` (for send_at) and the template's alias (./template-alias.ts) are given.
 *
 * What becomes what (docs/compat.md, "SendGrid" has the full table):
 * - personalization to/cc/bcc -> to/cc/bcc; its from, subject, headers, custom_args and send_at win over
 *   the request's; substitutions replace their keys in subject, text and html (one pass, longest key first);
 * - content text/plain -> text, text/html -> html; mail_settings.footer is appended to each;
 * - template_id -> template {id: alias, variables}: a dynamic template's dynamic_template_data flattened as the
 *   import flattens placeholders (`user.name` -> `user_name`), a legacy template's `{{key}}` substitutions and
 *   its content as `body`; the subject (when given) as the variable `subject` (imported templates without
 *   a subject use {{subject}});
 * - categories -> tags `category=<name>`, custom_args -> tags `<key>=<value>` (../provider-tags.ts: the
 *   doors' one rule); at most 10 tags in all;
 * - send_at (unix seconds) -> scheduled_at when in the future (now or past: sent now, as SendGrid does);
 * - asm (an unsubscribe group) -> category `product` with managed unsubscribe (the import turns SendGrid
 *   group opt-outs into product opt-outs); tracking_settings.subscription_tracking -> managed unsubscribe;
 *   tracking_settings.open_tracking and click_tracking -> track_opens and track_clicks.
 * Refused (a SendgridRequestError, SendGrid's 400 naming the field): what would silently change the mail
 * if dropped: sections, the mail_settings bypass_* switches, content types other than text/plain and
 * text/html, a footer on a template send, legacy substitution keys that are not `{{name}}` on a template
 * send, attachments on more than one personalization (the batch core sends no attachments), more than
 * MAX_BATCH personalizations.
 */
import { formatMailbox } from '#shared/domain/mail/address';
import { labelTags, MAX_TAGS, pairTags } from '../provider-tags';
import { MAX_BATCH } from '#shared/usecases/send/send-batch';
import { SendgridRequestError } from './errors';
import type { EmailObject, SendgridAttachment, SendgridMailSend, SendgridPersonalization } from './request-schema';

export interface MappingOptions {
  now: Date;
  /** Our alias for the request's template_id (./template-alias.ts); required when template_id is given. */
  templateAlias?: string;
}

/** One of our send requests, unparsed: the send core's schema validates it. */
export type SendRequestBody = Record<string, unknown>;

export interface MappedMailSend {
  requests: SendRequestBody[];
  /** mail_settings.sandbox_mode.enable: validate only, send nothing. */
  sandbox: boolean;
}

type Problem = { field: string | null; message: string };

const mailbox = (value: EmailObject) => formatMailbox(value.name ? { email: value.email, name: value.name } : { email: value.email });

/** Replaces each key with its value in one pass (longest key first, so `-name-` never eats `-name-full-`). */
export function substitute(text: string, substitutions: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(substitutions ?? {})
    .filter((key) => key !== '')
    .sort((a, b) => b.length - a.length);
  if (keys.length === 0) return text;
  const pattern = new RegExp(keys.map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return text.replace(pattern, (key) => substitutions![key]!);
}

/** dynamic_template_data flattened as imported templates name their placeholders: `user.name` -> `user_name`, `items.0` -> `items_0`. */
export function flattenTemplateData(
  data: Readonly<Record<string, unknown>>,
  prefix = '',
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const [key, value] of Object.entries(data)) {
    const name = prefix === '' ? key : `${prefix}_${key}`;
    if (value !== null && typeof value === 'object') flattenTemplateData(value as Record<string, unknown>, name, out);
    else out[name] = value;
  }
  return out;
}

/** `{{name}}` (the SDK wraps substitution keys so by default) -> `name`; null for any other form. */
export function placeholderName(key: string): string | null {
  return /^\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}$/.exec(key)?.[1] ?? null;
}

const isDynamicTemplate = (id: string) => id.startsWith('d-');

/** text/plain and text/html of `content` (each at most once; nothing else). */
function contentOf(body: SendgridMailSend, problems: Problem[]): { text?: string; html?: string } {
  const out: { text?: string; html?: string } = {};
  (body.content ?? []).forEach((block, index) => {
    const type = block.type.trim().toLowerCase();
    const key = type === 'text/plain' ? 'text' : type === 'text/html' ? 'html' : null;
    if (key === null) {
      problems.push({
        field: `content.${index}.type`,
        message: `Content of type ${block.type} cannot be sent here: only text/plain and text/html.`,
      });
    } else if (out[key] !== undefined) {
      problems.push({ field: `content.${index}.type`, message: `Only one content block of type ${type} is allowed.` });
    } else {
      out[key] = block.value;
    }
  });
  return out;
}

/** The footer appended: text after the text, html before </body> (or at the end). */
function withFooter(
  content: { text?: string; html?: string },
  footer: { text?: string; html?: string } | null,
): { text?: string; html?: string } {
  if (!footer) return content;
  const html =
    content.html === undefined || !footer.html
      ? content.html
      : /<\/body>/i.test(content.html)
        ? content.html.replace(/<\/body>/i, () => `${footer.html}</body>`)
        : `${content.html}${footer.html}`;
  const text = content.text === undefined || !footer.text ? content.text : `${content.text}\n\n${footer.text}`;
  return { ...(text === undefined ? {} : { text }), ...(html === undefined ? {} : { html }) };
}

function attachmentOf(attachment: SendgridAttachment, index: number, problems: Problem[]): SendRequestBody {
  if (attachment.disposition === 'inline' && !attachment.content_id) {
    problems.push({
      field: `attachments.${index}.content_id`,
      message: 'The content_id is required when the attachment disposition is inline.',
    });
  }
  return {
    filename: attachment.filename,
    data: attachment.content,
    ...(attachment.type ? { content_type: attachment.type } : {}),
    ...(attachment.disposition === 'inline' && attachment.content_id ? { content_id: attachment.content_id } : {}),
  };
}

/** What this service does not do at all: too many personalizations, sections, the bypass_* switches, both reply_to forms. */
function refuseUnsupported(body: SendgridMailSend, problems: Problem[]): void {
  if (body.personalizations.length > MAX_BATCH) {
    problems.push({
      field: 'personalizations',
      message: `At most ${MAX_BATCH} personalizations per request here (each is one email); split the request.`,
    });
  }
  if (body.sections && Object.keys(body.sections).length > 0) {
    problems.push({
      field: 'sections',
      message: 'sections are not supported: put the text in the content or a template, with substitutions or dynamic_template_data.',
    });
  }
  const settings = body.mail_settings ?? {};
  for (const name of [
    'bypass_list_management',
    'bypass_spam_management',
    'bypass_bounce_management',
    'bypass_unsubscribe_management',
  ] as const) {
    if (settings[name]?.enable === true) {
      problems.push({
        field: `mail_settings.${name}.enable`,
        message: `${name} is not supported: suppressions and unsubscribes always apply here.`,
      });
    }
  }
  if (body.reply_to && body.reply_to_list)
    problems.push({ field: 'reply_to_list', message: 'reply_to and reply_to_list cannot be used together.' });
}

/** mail_settings.footer when enabled. */
function footerOf(body: SendgridMailSend): { text?: string; html?: string } | null {
  const footer = body.mail_settings?.footer;
  return footer?.enable === true ? { text: footer.text, html: footer.html } : null;
}

/** What cannot go together here: a footer on a template, attachments over several personalizations; and a from for every email. */
function refuseUnsendable(body: SendgridMailSend, footer: { text?: string; html?: string } | null, problems: Problem[]): void {
  if (footer && body.template_id)
    problems.push({ field: 'mail_settings.footer', message: 'A footer cannot be added to a template send: put it in the template.' });
  if ((body.attachments?.length ?? 0) > 0 && body.personalizations.length > 1) {
    problems.push({
      field: 'attachments',
      message: 'Attachments can be sent with one personalization per request only: send one request per recipient group.',
    });
  }
  if (!body.from && !body.personalizations.every((p) => p.from)) {
    problems.push({
      field: 'from',
      message:
        'The from object must be provided for every email send. It is an object that requires an email parameter, but may also contain a name parameter.',
    });
  }
}

/** Without a template: some content, and a subject for every email. */
function requireContentAndSubject(body: SendgridMailSend, content: { text?: string; html?: string }, problems: Problem[]): void {
  if (content.text === undefined && content.html === undefined && !(body.content ?? []).length) {
    problems.push({
      field: 'content',
      message:
        'Unless a valid template_id is provided, the content parameter is required. There must be at least one defined content block.',
    });
  }
  if (body.subject === undefined && !body.personalizations.every((p) => p.subject !== undefined)) {
    problems.push({
      field: 'subject',
      message:
        'The subject is required. You can get around this requirement if you use a template with a subject defined or if every personalization has a subject defined.',
    });
  }
}

/** What every personalization shares (checked once). */
function shared(body: SendgridMailSend, problems: Problem[]) {
  refuseUnsupported(body, problems);
  const footer = footerOf(body);
  refuseUnsendable(body, footer, problems);
  const content = withFooter(contentOf(body, problems), footer);
  if (!body.template_id) requireContentAndSubject(body, content, problems);
  const attachments = (body.attachments ?? []).map((attachment, index) => attachmentOf(attachment, index, problems));
  const replyTo = body.reply_to_list?.map(mailbox) ?? (body.reply_to ? [mailbox(body.reply_to)] : undefined);
  const unsubscribe = body.asm !== undefined || body.tracking_settings?.subscription_tracking?.enable === true;
  // Open and click tracking per message, over the domain's settings (docs/tracking.md, "Per message").
  const tracking = {
    ...(body.tracking_settings?.open_tracking?.enable === undefined ? {} : { track_opens: body.tracking_settings.open_tracking.enable }),
    ...(body.tracking_settings?.click_tracking?.enable === undefined ? {} : { track_clicks: body.tracking_settings.click_tracking.enable }),
  };
  return { content, attachments, replyTo, unsubscribe, tracking, category: body.asm ? ('product' as const) : undefined };
}

function tagsOf(body: SendgridMailSend, personalization: SendgridPersonalization, index: number, problems: Problem[]) {
  const customArgs = { ...body.custom_args, ...personalization.custom_args };
  const tags = [...labelTags('category', body.categories ?? []), ...pairTags(customArgs)];
  if (tags.length > MAX_TAGS) {
    problems.push({
      field: personalization.custom_args ? `personalizations.${index}.custom_args` : body.custom_args ? 'custom_args' : 'categories',
      message: `At most ${MAX_TAGS} categories and custom_args together (each becomes a tag); this email has ${tags.length}.`,
    });
  }
  return tags;
}

function templateOf(
  body: SendgridMailSend,
  personalization: SendgridPersonalization,
  index: number,
  subject: string | undefined,
  content: { text?: string; html?: string },
  alias: string,
  problems: Problem[],
) {
  const variables: Record<string, unknown> = {};
  if (isDynamicTemplate(body.template_id!)) {
    Object.assign(variables, flattenTemplateData(personalization.dynamic_template_data ?? {}));
  } else {
    for (const [key, value] of Object.entries(personalization.substitutions ?? {})) {
      const name = placeholderName(key);
      if (name === null) {
        problems.push({
          field: `personalizations.${index}.substitutions`,
          message: `The substitution key "${key}" cannot fill a stored template: its templates use {{name}} placeholders (write the key as {{name}}).`,
        });
      } else {
        variables[name] = value;
      }
    }
    const bodyText = content.text ?? content.html;
    if (bodyText !== undefined && variables.body === undefined) variables.body = bodyText;
  }
  if (subject !== undefined && variables.subject === undefined) variables.subject = subject;
  return { id: alias, ...(Object.keys(variables).length ? { variables } : {}) };
}

/** The send requests of a SendGrid mail/send body; a SendgridRequestError for what cannot be sent as asked. */
export function toSendRequests(body: SendgridMailSend, options: MappingOptions): MappedMailSend {
  const problems: Problem[] = [];
  const common = shared(body, problems);
  const requests = body.personalizations.map((personalization, index): SendRequestBody => {
    const from = personalization.from ?? body.from;
    const subject = personalization.subject ?? body.subject;
    const headers = { ...body.headers, ...personalization.headers };
    const tags = tagsOf(body, personalization, index, problems);
    const sendAt = personalization.send_at ?? body.send_at;
    const scheduledAt = sendAt !== undefined && sendAt * 1000 > options.now.getTime() ? new Date(sendAt * 1000).toISOString() : undefined;
    const substitutions = personalization.substitutions;
    const message = body.template_id
      ? { template: templateOf(body, personalization, index, subject, common.content, options.templateAlias ?? body.template_id, problems) }
      : {
          ...(subject === undefined ? {} : { subject: substitute(subject, substitutions) }),
          ...(common.content.text === undefined ? {} : { text: substitute(common.content.text, substitutions) }),
          ...(common.content.html === undefined ? {} : { html: substitute(common.content.html, substitutions) }),
        };
    return {
      ...(from ? { from: from.name ? { email: from.email, name: from.name } : { email: from.email } } : {}),
      to: personalization.to.map(mailbox),
      ...(personalization.cc?.length ? { cc: personalization.cc.map(mailbox) } : {}),
      ...(personalization.bcc?.length ? { bcc: personalization.bcc.map(mailbox) } : {}),
      ...(common.replyTo ? { reply_to: common.replyTo } : {}),
      ...message,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(tags.length ? { tags } : {}),
      ...(scheduledAt ? { scheduled_at: scheduledAt } : {}),
      ...(common.attachments.length ? { attachments: common.attachments } : {}),
      ...(common.category ? { category: common.category } : {}),
      ...(common.unsubscribe ? { unsubscribe: true } : {}),
      ...common.tracking,
    };
  });
  if (problems.length) throw new SendgridRequestError(problems);
  return { requests, sandbox: body.mail_settings?.sandbox_mode?.enable === true };
}
