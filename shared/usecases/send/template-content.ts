/**
 * Sending with a template (spec, Send request `template`; docs/templates.md): the template's PUBLISHED
 * version, read when the email is accepted, is rendered with the request's variables into the email's
 * subject and body. A scheduled email keeps that rendering: publishing a new version later does not
 * change it (the version used is recorded on the email). The request may override `subject`, `from`,
 * `reply_to`, `category` and `unsubscribe`; otherwise the template's values apply (spec rule 10: the
 * template's unsubscribe_enabled unless unsubscribe is passed explicitly).
 *
 * A variable the template uses without a value or a fallback is a 400 naming it; so is a value that is
 * not a string, number or boolean. `{{unsubscribe_url}}` stays in place: the send worker fills it with the
 * signed link of each email (docs/tracking.md).
 */
import { parseBareSender, parseMailbox } from '../../domain/mail/address';
import { isCompleteRequest, type ParsedSendRequest, type SendRequest } from '../../domain/emails/send-request';
import { ValidationError } from '../../domain/errors';
import { checkVariableValues, renderTemplate } from '../../domain/templates/render';
import type { PublishedTemplate } from '../../domain/templates/template';
import type { PublishedTemplates } from './published-templates';

export interface TemplateContentDeps {
  publishedTemplates: Pick<PublishedTemplates, 'getPublished'>;
}

const MAX_SUBJECT = 998;

function invalid(fields: { field: string; message: string }[], message: string): never {
  throw new ValidationError(message, { details: { fields } });
}

/** The send request with its template (if any) rendered: what the send core decides on. */
export async function completeRequest(deps: TemplateContentDeps, accountId: string, parsed: ParsedSendRequest): Promise<SendRequest> {
  if (isCompleteRequest(parsed)) {
    const { template: _none, ...request } = parsed;
    return request;
  }
  const given = parsed.template;
  if (!given)
    invalid(
      [{ field: 'from', message: 'from and subject are required without a template' }],
      'Invalid email: from and subject are required without a template.',
    );
  const found = await deps.publishedTemplates.getPublished(accountId, given.id);
  if (found.kind === 'not_found') {
    invalid(
      [{ field: 'template.id', message: `no template with alias "${given.id}"` }],
      `Template "${given.id}" does not exist. Create it with POST /templates.`,
    );
  }
  if (found.kind === 'not_published') {
    invalid(
      [{ field: 'template.id', message: `template "${given.id}" has no published version` }],
      `Template "${given.id}" has no published version yet. Publish it with POST /templates/${given.id}/publish.`,
    );
  }
  return renderRequest(parsed, given.variables ?? {}, found.template);
}

/** Pure: the request completed from a published template and the given variable values. */
export function renderRequest(
  parsed: ParsedSendRequest,
  values: Readonly<Record<string, unknown>>,
  template: PublishedTemplate,
): SendRequest {
  const problems = checkVariableValues(values, 'template.variables');
  if (problems.length) {
    invalid(
      problems.map((message) => ({ field: message.split(':')[0]!.trim() || 'template.variables', message })),
      `Invalid template variables: ${problems.join('; ')}.`,
    );
  }
  const rendered = renderTemplate(
    { subject: parsed.subject ?? template.subject, html: template.html, text: template.text },
    template.variables,
    values,
  );
  if (rendered.missing.length) {
    const names = rendered.missing.map((name) => `"${name}"`).join(', ');
    invalid(
      rendered.missing.map((name) => ({
        field: `template.variables.${name}`,
        message: `missing: the template uses {{${name}}} and it has no fallback_value`,
      })),
      `Template "${template.alias}" needs a value for ${names} (no fallback_value is declared). Pass it in template.variables.`,
    );
  }
  if (rendered.subject.length > MAX_SUBJECT || rendered.subject.length === 0) {
    invalid(
      [{ field: 'subject', message: `the rendered subject must be 1-${MAX_SUBJECT} characters (it is ${rendered.subject.length})` }],
      'Invalid email: the rendered subject is empty or too long.',
    );
  }
  const from = parsed.from ?? senderOf(template.from, template.alias);
  const { template: _given, ...rest } = parsed;
  return {
    ...rest,
    from,
    subject: rendered.subject,
    ...(rendered.html === null ? {} : { html: rendered.html }),
    ...(rendered.text === null ? {} : { text: rendered.text }),
    ...(parsed.reply_to === undefined && template.reply_to.length ? { reply_to: template.reply_to } : {}),
    category: parsed.category ?? template.category,
    unsubscribe: parsed.unsubscribe ?? template.unsubscribe_enabled,
    // The send's own tracking switches win over the template's; neither: the domain decides.
    ...optionalFlag('track_opens', parsed.track_opens ?? template.track_opens),
    ...optionalFlag('track_clicks', parsed.track_clicks ?? template.track_clicks),
    from_template: { alias: template.alias, version: template.version },
  };
}

const optionalFlag = <K extends string>(key: K, value: boolean | null | undefined) =>
  (value === null || value === undefined ? {} : { [key]: value }) as Partial<Record<K, boolean>>;

function senderOf(from: string | null, alias: string) {
  const sender = from === null ? null : (parseMailbox(from) ?? parseBareSender(from));
  if (!sender)
    invalid(
      [{ field: 'from', message: `from is required: template "${alias}" has no default from` }],
      `Invalid email: give from (template "${alias}" has no default from).`,
    );
  return sender;
}
