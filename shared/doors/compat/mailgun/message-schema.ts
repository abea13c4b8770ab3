/**
 * The fields of Mailgun's `POST /v3/{domain}/messages` (docs/compat.md, "Mailgun"), as a zod schema over the
 * form's text fields (every field a list of its values: a form may repeat any field). It checks what is
 * Mailgun's own (single fields given once, yes/no options, RFC 2822 dates, JSON fields, which options this
 * service honours) and groups the prefixed fields (`h:`, `v:`, `o:tag`); what is ours (addresses, header
 * names, tag characters, limits) is left to the send request's schema, so each rule lives in one place.
 * Which fields it takes is ./message-fields.ts's. Pure.
 */
import * as z from 'zod';
import { addressesOf } from './address-list';
import { parseRfc2822Date } from './delivery-time';
import { checkFieldNames, type FieldIssue } from './message-fields';

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
  /** `o:tracking` (both), `o:tracking-opens`, `o:tracking-clicks` (each over `o:tracking`); absent: the domain's settings. */
  trackOpens?: boolean;
  trackClicks?: boolean;
}

/** Mailgun's tracking values: yes/true (and `htmlonly` for clicks: both bodies' links are tracked here) on, no/false off. */
const trackingValue = (value: string | undefined): boolean | undefined =>
  value === undefined ? undefined : ['yes', 'true', 'htmlonly'].includes(value.trim().toLowerCase());

const VARIABLES_HEADER = 'x-mailgun-variables';

const isObject = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON object field, or an issue naming it. */
function jsonObject(field: string, text: string, issue: FieldIssue): Record<string, Json> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    issue(field, `${field} must be a JSON object`);
    return undefined;
  }
  if (!isObject(value)) {
    issue(field, `${field} must be a JSON object`);
    return undefined;
  }
  return value;
}

/** A custom variable's value as text: strings as they are, other JSON values as JSON. */
const variableText = (value: Json): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The first value of a field, if given. */
type FirstValue = (field: string) => string | undefined;

/** from, to, and something to send (text, html or a template): each missing one an issue. */
function requiredParts(fields: FormFields, one: FirstValue, issue: FieldIssue) {
  const from = one('from');
  if (from === undefined || from.trim() === '') issue('from', "'from' parameter is missing");
  const to = addressesOf(fields.to);
  if (to.length === 0) issue('to', "'to' parameter is missing");
  const template = one('template');
  if (one('text') === undefined && one('html') === undefined && template === undefined) {
    issue('html', "Need at least one of 'text', 'html' or 'template' parameters specified");
  }
  return { from, to, template };
}

/** `o:deliverytime` (RFC 2822) as ISO 8601 UTC. */
function deliveryTimeOf(when: string | undefined, issue: FieldIssue): string | undefined {
  if (when === undefined) return undefined;
  const deliveryTime = parseRfc2822Date(when) ?? undefined;
  if (deliveryTime === undefined)
    issue('o:deliverytime', `'o:deliverytime' must be an RFC 2822 date, e.g. "Fri, 14 Oct 2030 23:10:10 -0000" (got "${when}")`);
  return deliveryTime;
}

/** The `h:` fields as headers (X-Mailgun-Variables read into variables), then the `v:` fields as variables; each given once. */
function headersAndVariables(fields: FormFields, issue: FieldIssue) {
  const headers: Record<string, string> = {};
  const variables: Record<string, string> = {};
  for (const [field, values] of Object.entries(fields)) {
    const lower = field.toLowerCase();
    if (lower.startsWith('h:')) {
      const name = field.slice(2);
      if (values.length > 1) issue(field, `'${field}' may be given once`);
      if (name.toLowerCase() === VARIABLES_HEADER) {
        const object = jsonObject(field, values[0]!, issue);
        for (const [key, value] of Object.entries(object ?? {})) variables[key] = variableText(value);
      } else headers[name] = values[0]!;
    }
  }
  for (const [field, values] of Object.entries(fields)) {
    if (!field.toLowerCase().startsWith('v:')) continue;
    if (values.length > 1) issue(field, `'${field}' may be given once`);
    variables[field.slice(2)] = values[0]!;
  }
  return { headers, variables };
}

/** `recipient-variables` (an object of objects) and `t:variables` (an object, with a template). */
function jsonVariables(one: FirstValue, template: string | undefined, issue: FieldIssue) {
  const recipientText = one('recipient-variables');
  const recipientVariables = recipientText === undefined ? undefined : jsonObject('recipient-variables', recipientText, issue);
  for (const [address, values] of Object.entries(recipientVariables ?? {})) {
    if (!isObject(values)) issue('recipient-variables', `the value of "${address}" in 'recipient-variables' must be a JSON object`);
  }
  const templateText = one('t:variables');
  const templateVariables = templateText === undefined ? undefined : jsonObject('t:variables', templateText, issue);
  if (templateVariables !== undefined && template === undefined) issue('t:variables', "'t:variables' needs 'template'");
  return { recipientVariables, templateVariables };
}

export const mailgunMessageSchema = z.record(z.string(), z.array(z.string())).transform((fields, ctx): MailgunMessage => {
  const issue: FieldIssue = (field, message) => ctx.addIssue({ code: 'custom', path: [field], message });
  const one: FirstValue = (field) => fields[field]?.[0];
  checkFieldNames(fields, issue);
  const { from, to, template } = requiredParts(fields, one, issue);
  const deliveryTime = deliveryTimeOf(one('o:deliverytime'), issue);
  const { headers, variables } = headersAndVariables(fields, issue);
  const { recipientVariables, templateVariables } = jsonVariables(one, template, issue);
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
    ...tracking(one),
  };
});

/** The per-message tracking options (their values were checked by checkFieldNames). */
function tracking(one: FirstValue): Pick<MailgunMessage, 'trackOpens' | 'trackClicks'> {
  const both = trackingValue(one('o:tracking'));
  const opens = trackingValue(one('o:tracking-opens')) ?? both;
  const clicks = trackingValue(one('o:tracking-clicks')) ?? both;
  return { ...(opens === undefined ? {} : { trackOpens: opens }), ...(clicks === undefined ? {} : { trackClicks: clicks }) };
}
