/**
 * The contract between the provider emulator's HTTP front (server.ts) and each fake provider
 * (sendgrid.ts, postmark.ts, mailgun.ts): which credential a request presents, the provider's own
 * answers for a bad key, a rate limit, an outage and a missing permission, and the API routes.
 */
import type { IncomingHttpHeaders } from 'node:http';

export type EmulatedProvider = 'sendgrid' | 'postmark' | 'mailgun';
export type EmulatedRegion = 'us' | 'eu';

/** An answer: JSON (`json`) or plain text (`text`). */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
}

export interface EmulatedRequest {
  method: string;
  /** Path below the provider's mount, e.g. /v3/suppression/bounces. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Absolute origin + mount prefix, e.g. http://127.0.0.1:4599/sendgrid (for paging URLs). */
  base: string;
  /** The credential the request presented (never logged). */
  key: string;
  nowMs: number;
}

/** Which token a request presents: the main API key, or (Postmark) the account token. */
export type CredentialKind = 'api' | 'account';

export interface Credential {
  kind: CredentialKind;
  /** null: the expected header is missing or malformed. */
  key: string | null;
}

export interface FakeProvider<Data> {
  provider: EmulatedProvider;
  credential(path: string, headers: IncomingHttpHeaders): Credential;
  unauthorized(credential: Credential): Reply;
  rateLimited(retryAfterSeconds: number, nowMs: number): Reply;
  unavailable(): Reply;
  /** What the provider answers a key without the permission for this path. */
  forbidden(path: string): Reply;
  handle(request: EmulatedRequest, data: Data): Reply;
  /** Headers the provider puts on every answer (SendGrid's X-RateLimit-*), if any. */
  decorate?(reply: Reply, nowMs: number): Reply;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({ status, json: body, headers });
export const text = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({ status, text: body, headers });
