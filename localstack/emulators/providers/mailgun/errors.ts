/**
 * Mailgun's error shapes: JSON `{"message": "…"}` with the status; 401 with the plain-text body
 * `Forbidden` for a missing or bad key, 429 with X-RateLimit-Reset (unix seconds) and
 * `{"retry-seconds": n}`, 403 `{"message":"Forbidden"}` for a path the key may not read, the plain-text
 * 503 of an outage.
 */
import { json, text, type Reply } from '../types';

export const message = (status: number, body: string): Reply => json(status, { message: body });

export const unauthorized = (): Reply => text(401, 'Forbidden');

export const rateLimited = (retryAfterSeconds: number, nowMs: number): Reply =>
  json(429, { 'retry-seconds': retryAfterSeconds }, { 'X-RateLimit-Reset': String(Math.floor(nowMs / 1000) + retryAfterSeconds) });

export const unavailable = (): Reply => text(503, 'Service Unavailable');

export const forbidden = (): Reply => message(403, 'Forbidden');

export const notFound = (): Reply => message(404, 'Not Found');
