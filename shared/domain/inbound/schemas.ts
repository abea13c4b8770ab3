/** Request validation for /received-emails (the single source of the request types). */
import * as z from 'zod';

/** `?limit&cursor&to&from&since`: filters by a recipient (header To or envelope), the sender's address, a start time. */
export const listReceivedEmailsQuerySchema = z.object({
  limit: z.coerce.number().int('limit must be an integer').min(1, 'limit must be 1-100').max(100, 'limit must be 1-100').default(25),
  cursor: z.string().max(2048).optional(),
  to: z
    .string()
    .trim()
    .toLowerCase()
    .min(3)
    .max(320)
    .includes('@', { message: 'to must be an email address' })
    .optional()
    .describe('only email with this address among To, Cc and the envelope recipients (case-insensitive)'),
  from: z
    .string()
    .trim()
    .toLowerCase()
    .min(3)
    .max(320)
    .includes('@', { message: 'from must be an email address' })
    .optional()
    .describe('only email with this From address (case-insensitive)'),
  since: z.iso
    .datetime({ offset: true, message: 'since must be an ISO 8601 timestamp, e.g. 2026-11-23T00:00:00.000Z' })
    .optional()
    .describe('only email received at or after this time (ISO 8601 with Z or an offset)'),
});
export type ListReceivedEmailsQuery = z.output<typeof listReceivedEmailsQuerySchema>;
