/**
 * Mailgun's batch sending: with `recipient-variables`, each `to` recipient gets an email of its own in
 * which `%recipient.<key>%` is replaced by that recipient's value (a missing key by nothing, as Mailgun
 * does). Pure.
 */
import { parseMailbox } from '#shared/domain/mail/address';
import type { Json } from './message-schema';

const PLACEHOLDER = /%recipient\.([^%\s]+)%/g;

/** A recipient's values: recipient-variables are keyed by bare address, matched case-insensitively. */
export function valuesFor(recipient: string, all: Readonly<Record<string, Record<string, Json>>>): Record<string, Json> {
  const address = (parseMailbox(recipient)?.email ?? recipient).toLowerCase();
  for (const [key, values] of Object.entries(all)) if (key.trim().toLowerCase() === address) return values;
  return {};
}

/** The text with each `%recipient.<key>%` replaced (strings as they are, other values as JSON). */
export function substitute(text: string, values: Readonly<Record<string, Json>>): string {
  return text.replace(PLACEHOLDER, (_placeholder, key: string) => {
    const value = values[key];
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** Every string inside a JSON value substituted (template variables). */
export function substituteDeep(value: Json, values: Readonly<Record<string, Json>>): Json {
  if (typeof value === 'string') return substitute(value, values);
  if (Array.isArray(value)) return value.map((item) => substituteDeep(item, values));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteDeep(item, values)]));
  return value;
}

/** The values of a record substituted. */
export function substituteRecord(record: Readonly<Record<string, string>>, values: Readonly<Record<string, Json>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, text]) => [key, substitute(text, values)]));
}
