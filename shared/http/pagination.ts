import * as z from 'zod';

/** `?limit=1..100 (default 25)&cursor=...` on every list. */
export const pageQuerySchema = z.object({
  limit: z.coerce.number().int('limit must be an integer').min(1, 'limit must be 1-100').max(100, 'limit must be 1-100').default(25),
  cursor: z.string().max(2048).optional(),
});
