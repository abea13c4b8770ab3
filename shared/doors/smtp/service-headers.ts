/**
 * The API's send options, given to the relay as header fields (read here, then stripped before delivery):
 *
 * | field                        | API field          | value                                                |
 * |------------------------------|--------------------|------------------------------------------------------|
 * | X-Service-Tags               | tags               | `name=value, name2=value2` (letters, digits, _ -; 10) |
 * | X-Service-Tenant             | tenant             | the tenant's external_id or id                       |
 * | X-Service-Category           | category           | transactional, product or newsletter                 |
 * | X-Service-Idempotency-Key    | Idempotency-Key    | 1-255 printable ASCII characters                     |
 * | X-Service-Scheduled-At       | scheduled_at       | ISO 8601 with a time zone, e.g. 2030-01-01T09:00:00Z |
 * | X-Service-Unsubscribe        | unsubscribe        | true or false: managed unsubscribe (List-Unsubscribe)  |
 *
 * A field given twice is refused (which one would win is a guess), except X-Service-Tags, whose lists add
 * up. Any other X-Service-* field is refused (a typo would otherwise pass unnoticed), except
 * X-Service-Message-Id (a forwarded message of ours): the service sets its own.
 */
import { validateIdempotencyKey } from '../../domain/emails/idempotency';
import { scheduledAtField } from '../../domain/emails/schedule';
import { MAX_TAGS } from '../../domain/emails/send-request';
import { CATEGORIES, type Category } from '../../domain/mail/category';
import { ValidationError } from '../../domain/errors';

export const SERVICE_HEADERS = {
  tags: 'X-Service-Tags',
  tenant: 'X-Service-Tenant',
  category: 'X-Service-Category',
  idempotencyKey: 'X-Service-Idempotency-Key',
  scheduledAt: 'X-Service-Scheduled-At',
  unsubscribe: 'X-Service-Unsubscribe',
} as const;

/** Ours, set on every message sent; a client's is dropped silently. */
const IGNORED = new Set(['x-service-message-id']);

const TAG_PART = /^[A-Za-z0-9_-]{1,256}$/;

export interface ServiceOptions {
  tags?: { name: string; value: string }[];
  tenant?: string;
  category?: Category;
  idempotencyKey?: string;
  scheduledAt?: string;
  unsubscribe?: boolean;
}

function refuse(header: string, message: string): never {
  throw new ValidationError(`${header}: ${message}`, { details: { fields: [{ field: header, message }] } });
}

export function parseTags(value: string, header: string = SERVICE_HEADERS.tags): { name: string; value: string }[] {
  const tags: { name: string; value: string }[] = [];
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const equals = entry.indexOf('=');
    const name = equals < 0 ? entry : entry.slice(0, equals).trim();
    const tagValue = equals < 0 ? '' : entry.slice(equals + 1).trim();
    if (!TAG_PART.test(name) || !TAG_PART.test(tagValue))
      refuse(header, `"${entry}" is not name=value (names and values are 1-256 letters, digits, _ or -)`);
    tags.push({ name, value: tagValue });
  }
  return tags;
}

/**
 * The options of the X-Service-* fields among `fields` (name as written, value unfolded); a 400 naming the
 * field when one is wrong.
 */
export function readServiceHeaders(fields: readonly { name: string; value: string }[]): ServiceOptions {
  const known = new Map<string, string>(Object.values(SERVICE_HEADERS).map((name) => [name.toLowerCase(), name]));
  const seen = new Map<string, string[]>();
  for (const { name, value } of fields) {
    const lower = name.toLowerCase();
    if (!lower.startsWith('x-service-') || IGNORED.has(lower)) continue;
    if (!known.has(lower)) refuse(name, `unknown field; the relay reads ${Object.values(SERVICE_HEADERS).join(', ')}`);
    seen.set(lower, [...(seen.get(lower) ?? []), value]);
  }
  const single = (header: string): string | undefined => {
    const values = seen.get(header.toLowerCase());
    if (!values) return undefined;
    if (values.length > 1) refuse(header, 'given more than once');
    return values[0]!;
  };
  const options: ServiceOptions = {};
  const tagValues = seen.get(SERVICE_HEADERS.tags.toLowerCase());
  if (tagValues) {
    const tags = tagValues.flatMap((value) => parseTags(value));
    if (tags.length > MAX_TAGS) refuse(SERVICE_HEADERS.tags, `at most ${MAX_TAGS} tags`);
    if (tags.length) options.tags = tags;
  }
  const tenant = single(SERVICE_HEADERS.tenant);
  if (tenant !== undefined) {
    if (tenant.length < 1 || tenant.length > 128) refuse(SERVICE_HEADERS.tenant, 'a tenant external_id or id of 1-128 characters');
    options.tenant = tenant;
  }
  const category = single(SERVICE_HEADERS.category);
  if (category !== undefined) {
    const lower = category.toLowerCase();
    if (!(CATEGORIES as readonly string[]).includes(lower)) refuse(SERVICE_HEADERS.category, `one of ${CATEGORIES.join(', ')}`);
    options.category = lower as Category;
  }
  const key = single(SERVICE_HEADERS.idempotencyKey);
  if (key !== undefined) {
    try {
      options.idempotencyKey = validateIdempotencyKey(key);
    } catch {
      refuse(SERVICE_HEADERS.idempotencyKey, '1-255 printable ASCII characters without spaces');
    }
  }
  const at = single(SERVICE_HEADERS.scheduledAt);
  if (at !== undefined) {
    const parsed = scheduledAtField.safeParse(at);
    if (!parsed.success) refuse(SERVICE_HEADERS.scheduledAt, 'an ISO 8601 timestamp with a time zone, e.g. 2030-01-01T09:00:00Z');
    options.scheduledAt = parsed.data;
  }
  const unsubscribe = single(SERVICE_HEADERS.unsubscribe);
  if (unsubscribe !== undefined) {
    const lower = unsubscribe.trim().toLowerCase();
    if (lower !== 'true' && lower !== 'false') refuse(SERVICE_HEADERS.unsubscribe, 'true or false');
    options.unsubscribe = lower === 'true';
  }
  return options;
}
