/**
 * SendGrid's error shapes: `{"errors":[{field, message}]}` with the status; 401 for a missing or bad
 * Bearer key, 429 with Remaining 0 and the errors body (no Retry-After), 403 "access forbidden" for a
 * missing scope, 404 "resource not found", and the plain-text 503 of an outage.
 */
import { json, text, type Credential, type Reply } from '../types';
import { rateHeaders } from './rate-limit';

export const errors = (status: number, message: string, field: string | null = null, headers: Record<string, string> = {}): Reply =>
  json(status, { errors: [{ field, message }] }, headers);

export const notFound = (): Reply => errors(404, 'resource not found');

export function unauthorized(credential: Credential): Reply {
  if (credential.key === null) return errors(401, 'authorization required');
  return json(401, {
    errors: [{ message: 'The provided authorization grant is invalid, expired, or revoked', field: null, help: null }],
  });
}

export const rateLimited = (retryAfterSeconds: number, nowMs: number): Reply =>
  errors(429, 'too many requests', null, rateHeaders(0, Math.floor(nowMs / 1000) + retryAfterSeconds));

export const unavailable = (): Reply => text(503, 'Service Unavailable');

export const forbidden = (): Reply => errors(403, 'access forbidden');
