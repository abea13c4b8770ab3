/**
 * The query of GET /domains/{id}/dmarc: a range of UTC days (`since`, `until`, YYYY-MM-DD, both
 * included; default the last DEFAULT_DAYS days to today, at most MAX_DAYS), the sources of one group
 * (`group`), and their page (`limit`, `cursor`). Pure.
 */
import * as z from 'zod';
import { ValidationError } from '../errors';
import { SOURCE_GROUPS, type SourceGroup } from './our-sending';
import type { SourceCursor } from './figures';

export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 90;

const day = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date (YYYY-MM-DD)`)
    .refine(
      (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      `${name} must be a date (YYYY-MM-DD)`,
    );

export const dmarcFiguresQuerySchema = z.object({
  since: day('since')
    .optional()
    .describe(`the first UTC day (YYYY-MM-DD); default ${DEFAULT_DAYS - 1} days before until`),
  until: day('until').optional().describe('the last UTC day (YYYY-MM-DD), included; default today'),
  group: z
    .enum(SOURCE_GROUPS, { message: 'group must be ours or others' })
    .optional()
    .describe("only the sources of this group: ours (the service's sending) or others"),
  limit: z.coerce
    .number()
    .int('limit must be an integer')
    .min(1, 'limit must be 1-100')
    .max(100, 'limit must be 1-100')
    .default(25)
    .describe('sources per page (1-100, default 25)'),
  cursor: z.string().max(512).optional().describe("the previous page's next_cursor"),
});
export type DmarcFiguresQuery = z.output<typeof dmarcFiguresQuerySchema>;

const DAY_MS = 86_400_000;
const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const fieldError = (field: string, message: string) =>
  new ValidationError(`${field} ${message}`, { details: { fields: [{ field, message }] } });

/** The range asked for, defaults filled, checked (400 naming the field). */
export function figuresRange(query: Pick<DmarcFiguresQuery, 'since' | 'until'>, now: Date): { since: string; until: string } {
  const until = query.until ?? dayString(now.getTime());
  const since = query.since ?? dayString(Date.parse(`${until}T00:00:00Z`) - (DEFAULT_DAYS - 1) * DAY_MS);
  const days = (Date.parse(`${until}T00:00:00Z`) - Date.parse(`${since}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1) throw fieldError('since', 'must not be after until');
  if (days > MAX_DAYS) throw fieldError('since', `must be at most ${MAX_DAYS} days before until (both included)`);
  return { since, until };
}

const cursorSchema = z.object({ messages: z.number().int().min(0), source_ip: z.string().max(64), group: z.enum(SOURCE_GROUPS) });

export function encodeSourceCursor(cursor: SourceCursor): string {
  return Buffer.from(JSON.stringify([cursor.messages, cursor.source_ip, cursor.group])).toString('base64url');
}

export function decodeSourceCursor(value: string | undefined): SourceCursor | null {
  if (value === undefined) return null;
  try {
    const [messages, source_ip, group] = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as [number, string, SourceGroup];
    return cursorSchema.parse({ messages, source_ip, group });
  } catch {
    throw fieldError('cursor', 'is not a cursor of this list');
  }
}
