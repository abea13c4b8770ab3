/**
 * The local mailbox's filters, for `GET /_local/ses/messages` (the API port) and `GET /_local/messages`
 * (the emulator's own port): `email_id`, `to`, `tag` (repeatable), `tenant_name`, `subject`, `since`,
 * `limit`, and `raw=1` to include each message's bytes (left out by default: one 40 MB attachment is
 * 90 MB of JSON). An unknown parameter or a bad value is refused, never ignored: a filter that
 * silently matched everything would hand a caller every message. Local-only (SES has no such API):
 * docs/local-cloud/ses.md.
 */
import type { StoredMessage } from './types';

export interface MessageQuery {
  /** The `email_id` message tag (the service's email id). */
  emailId?: string;
  /** A recipient, case-insensitive. */
  to?: string;
  /** Tags every message must carry: `[name, value]`, or `[name]` for any value. */
  tags: [string, string?][];
  tenantName?: string;
  subject?: string;
  /** Received at or after this time (ms since the epoch). */
  since?: number;
  /** The newest `limit` of the matching messages. */
  limit?: number;
  /** Include `raw` and `raw_base64`. */
  raw: boolean;
}

export class MessageQueryError extends Error {}

const SINGLE = ['email_id', 'to', 'tenant_name', 'subject', 'since', 'limit', 'raw'] as const;
const KNOWN = new Set<string>([...SINGLE, 'tag']);
const MAX_LIMIT = 10_000;

function one(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new MessageQueryError(`${name} may be given once (got ${values.length})`);
  return values[0];
}

export function parseMessageQuery(params: URLSearchParams): MessageQuery {
  for (const name of params.keys()) {
    if (!KNOWN.has(name)) throw new MessageQueryError(`unknown parameter ${JSON.stringify(name)}: use ${[...KNOWN].join(', ')}`);
  }
  const query: MessageQuery = { tags: [], raw: false };
  const text = (name: string): string | undefined => {
    const value = one(params, name);
    if (value === '') throw new MessageQueryError(`${name} must not be empty`);
    return value;
  };
  query.emailId = text('email_id');
  query.to = text('to')?.toLowerCase();
  query.tenantName = text('tenant_name');
  query.subject = one(params, 'subject');
  const since = text('since');
  if (since !== undefined) {
    query.since = Date.parse(since);
    if (Number.isNaN(query.since)) throw new MessageQueryError(`since must be an ISO 8601 time, got ${JSON.stringify(since)}`);
  }
  const limit = text('limit');
  if (limit !== undefined) {
    query.limit = Number(limit);
    if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_LIMIT)
      throw new MessageQueryError(`limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(limit)}`);
  }
  const raw = one(params, 'raw');
  if (raw !== undefined && !['0', '1', 'true', 'false'].includes(raw))
    throw new MessageQueryError(`raw must be 1 or 0, got ${JSON.stringify(raw)}`);
  query.raw = raw === '1' || raw === 'true';
  for (const tag of params.getAll('tag')) {
    const at = tag.indexOf(':');
    const name = at < 0 ? tag : tag.slice(0, at);
    if (!name) throw new MessageQueryError(`tag must be name:value or name, got ${JSON.stringify(tag)}`);
    query.tags.push(at < 0 ? [name] : [name, tag.slice(at + 1)]);
  }
  return query;
}

function matchesQuery(message: StoredMessage, query: MessageQuery): boolean {
  if (query.emailId !== undefined && message.tags.email_id !== query.emailId) return false;
  if (query.to !== undefined && !message.to.some((recipient) => recipient.toLowerCase() === query.to)) return false;
  if (query.tenantName !== undefined && message.tenantName !== query.tenantName) return false;
  if (query.subject !== undefined && message.subject !== query.subject) return false;
  if (query.since !== undefined && Date.parse(message.receivedAt) < query.since) return false;
  return query.tags.every(([name, value]) => (value === undefined ? Object.hasOwn(message.tags, name) : message.tags[name] === value));
}

/** The matching messages of `newestFirst`, at most `limit`. */
export function selectMessages(newestFirst: StoredMessage[], query: MessageQuery): StoredMessage[] {
  const selected: StoredMessage[] = [];
  for (const message of newestFirst) {
    if (!matchesQuery(message, query)) continue;
    selected.push(message);
    if (selected.length === query.limit) break;
  }
  return selected;
}
