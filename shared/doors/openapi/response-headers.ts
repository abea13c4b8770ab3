/** The response headers of an answer, as $refs to the document's header components. */
import type { JsonSchema } from './document-types';
import type { ResponseHeader } from './operation';

const HEADERS: Record<ResponseHeader, [string, string][]> = {
  rateLimit: [
    ['ratelimit-limit', 'RateLimitLimit'],
    ['ratelimit-remaining', 'RateLimitRemaining'],
    ['ratelimit-reset', 'RateLimitReset'],
  ],
  retryAfter: [['Retry-After', 'RetryAfter']],
  setCookie: [['Set-Cookie', 'SetSessionCookie']],
  location: [['Location', 'Location']],
  contentDisposition: [['Content-Disposition', 'ContentDisposition']],
};

export function headersOf(names: readonly ResponseHeader[] = [], required: readonly ResponseHeader[] = []): JsonSchema | undefined {
  if (names.length === 0) return undefined;
  const out: JsonSchema = {};
  for (const name of names) {
    for (const [header, component] of HEADERS[name]) {
      out[header] = required.includes(name)
        ? { $ref: `#/components/headers/${component}`, required: true }
        : { $ref: `#/components/headers/${component}` };
    }
  }
  return out;
}
