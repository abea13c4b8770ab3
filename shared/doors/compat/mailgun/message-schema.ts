/**
 * The fields of Mailgun's `POST /v3/{domain}/messages` (docs/compat.md, "Mailgun"), as a zod schema over the
 * form's text fields (every field a list of its values: a form may repeat any field). It checks what is
 * Mailgun's own (single fields given once, yes/no options, RFC 2822 dates, JSON fields, which options this
 * service honours) and groups the prefixed fields (`h:`, `v:`, `o:tag`); what is ours (addresses, header
 * names, tag characters, limits) is left to the send request's schema, so each rule lives in one place.
 * Pure.
 */
import * as z from 'zod';
import { addressesOf } from './address-list';
import { parseRfc2822Date } from './delivery-time';

/** A form's text fields: each name with its values in order. */
export type FormFields = Record<string, string[]>;

/** A JSON value as Mailgun's JSON fields carry it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface MailgunMessage {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject?: string;
  text?: string;
  html?: string;
  /** `o:tag`, in order. */
  tags: string[];
  /** `o:deliverytime` as ISO 8601 UTC. */
  deliveryTime?: string;
  /** `h:<Name>` (X-Mailgun-Variables excepted: it is read into `variables`). */
  headers: Record<string, string>;
  /** `v:<name>` and the keys of an `h:X-Mailgun-Variables` JSON object. */
  variables: Record<string, string>;
  /** `recipient-variables`: address -> its values. */
  recipientVariables?: Record<string, Record<string, Json>>;
  template?: string;
  templateVariables?: Record<string, Json>;
}

/** Options honoured or knowingly ignored (docs/compat.md, "Mailgun"); any other `o:` is refused. */
const YES_NO = ['yes', 'no', 'true', 'false'];
const TRACKING = [...YES_NO, 'htmlonly'];
const IGNORED_OPTIONS: Readonly<Record<string, readonly string[] | null>> = {
  'o:tracking': TRACKING,
  'o:tracking-clicks': TRACKING,
  'o:tracking-opens': YES_NO,
  'o:dkim': YES_NO,
  'o:skip-verification': YES_NO,
  'o:sending-ip': null,
  'o:sending-ip-pool': null,
  'o:suppress-headers': null,
  't:text': YES_NO,
  'amp-html': null,
};
/** Options whose "yes" this service cannot honour, each with why. */
const REFUSED_WHEN_YES: Readonly<Record<string, string>> = {
  'o:testmode':
    'this service has no test mode (a test-mode message would really be sent); send from the sandbox domain to your account email instead',
  'o:require-tls': 'TLS is required per sending domain here (PATCH /domains/{id} {"tls_mode": "enforced"}), not per message',
};
/** Fields this service refuses whatever their value, each with why. */
const REFUSED: Readonly<Record<string, string>> = {
  'o:deliverytime-optimize-period': 'send time optimization is not supported; give o:deliverytime',
  'o:time-zone-localize': 'time zone localization is not supported; give o:deliverytime',
  'o:archive-to': 'message archiving is not supported',
  't:version': "templates send their published version only (a template's versions are not addressable here)",
  message:
    'MIME messages are sent with POST /v3/{domain}/messages.mime, which this service does not offer: use the SMTP relay for raw MIME',
};
const SINGLE_FIELDS = ['from', 'subject', 'text', 'html', 'template', 'recipient-variables', 't:variables', 'o:deliverytime'];
const LIST_FIELDS = ['to', 'cc', 'bcc', 'o:tag'];
const VARIABLES_HEADER = 'x-mailgun-variables';

const isYes = (value: string) => ['yes', 'true'].includes(value.trim().toLowerCase());
const isObject = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON object field, or an issue naming it. */
function jsonObject(field: string, text: string, ctx: z.RefinementCtx): Record<string, Json> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', path: [field], message: `${field} must be a JSON object` });
    return undefined;
  }
  if (!isObject(value)) {
    ctx.addIssue({ code: 'custom', path: [field], message: `${field} must be a JSON object` });
    return undefined;
  }
  return value;
}

/** A custom variable's value as text: strings as they are, other JSON values as JSON. */
const variableText = (value: Json): string => (typeof value === 'string' ? value : JSON.stringify(value));

export const mailgunMessageSchema = z.record(z.string(), z.array(z.string())).transform((fields, ctx): MailgunMessage => {
  const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
  const one = (field: string): string | undefined => fields[field]?.[0];

  for (const [field, values] of Object.entries(fields)) {
    const lower = field.toLowerCase();
    if (SINGLE_FIELDS.includes(field) && values.length > 1) issue(field, `'${field}' parameter may be given once`);
    if (REFUSED[field] !== undefined) issue(field, `'${field}' is not supported: ${REFUSED[field]}`);
    else if (REFUSED_WHEN_YES[field] !== undefined) {
      if (values.some(isYes)) issue(field, `'${field}' is not supported: ${REFUSED_WHEN_YES[field]}`);
      else if (!values.every((value) => YES_NO.includes(value.trim().toLowerCase()))) issue(field, `'${field}' must be yes or no`);
    } else if (field in IGNORED_OPTIONS) {
      const allowed = IGNORED_OPTIONS[field];
      if (allowed && !values.every((value) => allowed.includes(value.trim().toLowerCase())))
        issue(field, `'${field}' must be one of ${allowed.join(', ')}`);
    } else if (!SINGLE_FIELDS.includes(field) && !LIST_FIELDS.includes(field) && !lower.startsWith('h:') && !lower.startsWith('v:')) {
      issue(field, `'${field}' is not a parameter this service takes (docs/compat.md, "Mailgun" lists them)`);
    }
  }

  const from = one('from');
  if (from === undefined || from.trim() === '') issue('from', "'from' parameter is missing");
  const to = addressesOf(fields.to);
  if (to.length === 0) issue('to', "'to' parameter is missing");
  const template = one('template');
  if (one('text') === undefined && one('html') === undefined && template === undefined) {
    issue('html', "Need at least one of 'text', 'html' or 'template' parameters specified");
  }

  let deliveryTime: string | undefined;
  const when = one('o:deliverytime');
  if (when !== undefined) {
    deliveryTime = parseRfc2822Date(when) ?? undefined;
    if (deliveryTime === undefined)
      issue('o:deliverytime', `'o:deliverytime' must be an RFC 2822 date, e.g. "Fri, 14 Oct 2030 23:10:10 -0000" (got "${when}")`);
  }

  const headers: Record<string, string> = {};
  const variables: Record<string, string> = {};
  for (const [field, values] of Object.entries(fields)) {
    const lower = field.toLowerCase();
    if (lower.startsWith('h:')) {
      const name = field.slice(2);
      if (values.length > 1) issue(field, `'${field}' may be given once`);
      if (name.toLowerCase() === VARIABLES_HEADER) {
        const object = jsonObject(field, values[0]!, ctx);
        for (const [key, value] of Object.entries(object ?? {})) variables[key] = variableText(value);
      } else headers[name] = values[0]!;
    }
  }
  for (const [field, values] of Object.entries(fields)) {
    if (!field.toLowerCase().startsWith('v:')) continue;
    if (values.length > 1) issue(field, `'${field}' may be given once`);
    variables[field.slice(2)] = values[0]!;
  }

  const recipientText = one('recipient-variables');
  const recipientVariables = recipientText === undefined ? undefined : jsonObject('recipient-variables', recipientText, ctx);
  for (const [address, values] of Object.entries(recipientVariables ?? {})) {
    if (!isObject(values)) issue('recipient-variables', `the value of "${address}" in 'recipient-variables' must be a JSON object`);
  }
  const templateText = one('t:variables');
  const templateVariables = templateText === undefined ? undefined : jsonObject('t:variables', templateText, ctx);
  if (templateVariables !== undefined && template === undefined) issue('t:variables', "'t:variables' needs 'template'");

  return {
    from: from ?? '',
    to,
    cc: addressesOf(fields.cc),
    bcc: addressesOf(fields.bcc),
    ...(one('subject') !== undefined ? { subject: one('subject') } : {}),
    ...(one('text') !== undefined ? { text: one('text') } : {}),
    ...(one('html') !== undefined ? { html: one('html') } : {}),
    tags: fields['o:tag'] ?? [],
    ...(deliveryTime !== undefined ? { deliveryTime } : {}),
    headers,
    variables,
    ...(recipientVariables !== undefined ? { recipientVariables: recipientVariables as Record<string, Record<string, Json>> } : {}),
    ...(template !== undefined ? { template } : {}),
    ...(templateVariables !== undefined ? { templateVariables } : {}),
  };
});
