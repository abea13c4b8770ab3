/**
 * The contract between the provider emulator's HTTP front (server.ts) and each fake provider
 * (sendgrid/provider.ts, postmark/provider.ts, mailgun/provider.ts): which credential a request
 * presents, the provider's own answers for a bad key, a rate limit, an outage, a missing permission and
 * an unknown path (each provider's errors.ts), and its table of API routes (each provider's routes.ts).
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
  /** The provider's GET routes, each answered by one operation (its routes.ts). */
  routes: readonly Route<Data>[];
  /** What the provider answers a path no route matches. */
  notFound(): Reply;
  /** Headers the provider puts on every answer (SendGrid's X-RateLimit-*), if any. */
  decorate?(reply: Reply, nowMs: number): Reply;
}

/** One operation (a module of a provider's operations/): the request, the account's seed and the path's decoded captures in order. */
export type Operation<Data> = (request: EmulatedRequest, data: Data, params: string[]) => Reply;

/** A line of a provider's routes.ts: a GET path pattern and the operation answering it. */
export interface Route<Data> {
  path: RegExp;
  operation: Operation<Data>;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({ status, json: body, headers });
export const text = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({ status, text: body, headers });
