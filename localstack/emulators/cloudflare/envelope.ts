/**
 * Cloudflare's v4 envelope, around every answer: `{success, errors: [{code, message, error_chain?}],
 * messages, result, result_info?}`. A success is `ok`; a failure is a CloudflareFault (./errors.ts); a list
 * is paged with `page` and `per_page`, its `result_info` saying where it is.
 */

/** An answer: HTTP status and the envelope. */
export interface CloudflareReply {
  status: number;
  body: unknown;
}

export const ok = (result: unknown, extra: Record<string, unknown> = {}, status = 200): CloudflareReply => ({
  status,
  body: { success: true, errors: [], messages: [], result, ...extra },
});

/** One page of `list`: `per_page` (1-5000, `defaultPerPage` when absent or not a number) from `page` (from 1). */
export function paged<T>(list: T[], query: URLSearchParams, defaultPerPage: number): CloudflareReply {
  const perPage = Math.min(Math.max(Number(query.get('per_page') ?? defaultPerPage) || defaultPerPage, 1), 5000);
  const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
  const items = list.slice((page - 1) * perPage, page * perPage);
  return ok(items, {
    result_info: {
      page,
      per_page: perPage,
      count: items.length,
      total_count: list.length,
      total_pages: Math.max(Math.ceil(list.length / perPage), 1),
    },
  });
}
