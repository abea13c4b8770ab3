/**
 * Postmark's error shapes: `{"ErrorCode": n, "Message": "…"}` with the status; 401 `ErrorCode` 10 for a
 * bad or missing token, 422 for an unknown entity, 429 `ErrorCode` 429 with no rate-limit headers.
 * Postmark documents no 403: a path the token may not read answers the plain-text 404 of an unknown path.
 */
import { json, text, type Credential, type Reply } from '../types';

export const apiError = (status: number, code: number, message: string): Reply => json(status, { ErrorCode: code, Message: message });

export const streamNotFound = (): Reply => apiError(422, 1226, "The message stream for the provided 'ID' was not found.");

export const unauthorized = (credential: Credential): Reply =>
  apiError(401, 10, `Request does not contain a valid ${credential.kind === 'account' ? 'Account' : 'Server'} token.`);

export const rateLimited = (): Reply => apiError(429, 429, 'Rate limit exceeded. Please slow down your requests.');

export const unavailable = (): Reply => text(503, 'Service Unavailable');

export const notFound = (): Reply => text(404, 'Not Found');

export const forbidden = notFound;
