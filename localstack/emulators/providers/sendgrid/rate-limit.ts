/**
 * SendGrid's rate-limit headers: X-RateLimit-Limit/Remaining/Reset on every answer (`withRateLimitHeaders`,
 * ./provider.ts's decorate) and on its 429 with Remaining 0 (./errors.ts).
 */
import type { Reply } from '../types';

const RATE_LIMIT = 600;

export function rateHeaders(remaining: number, reset: number): Record<string, string> {
  return { 'X-RateLimit-Limit': String(RATE_LIMIT), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': String(reset) };
}

/** The reply with the headers of a request spent from a fresh minute, unless it already has them (a 429). */
export function withRateLimitHeaders(reply: Reply, nowMs: number): Reply {
  if (reply.headers?.['X-RateLimit-Limit']) return reply;
  return { ...reply, headers: { ...reply.headers, ...rateHeaders(RATE_LIMIT - 1, Math.floor(nowMs / 1000) + 60) } };
}
