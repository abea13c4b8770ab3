/**
 * Port: POSTs one signed webhook attempt (over HTTPS behind the SSRF guard: shared/adapters/webhooks/http-sender.ts).
 * The delivery worker decides retries from the result.
 */

export interface WebhookSendInput {
  url: string;
  /** Signature headers and any others; content-type and user-agent are set by the sender. */
  headers: Record<string, string>;
  /** The exact JSON body (the signed bytes). */
  body: string;
  /** Overall limit for this attempt (DNS, connect, TLS, response); the sender's default when absent. */
  timeoutMs?: number;
}

export interface WebhookSendResult {
  /** The HTTP status, or null when there was no HTTP answer. */
  statusCode: number | null;
  durationMs: number;
  /** Why there was no HTTP answer: refusal (SSRF guard, bad URL), DNS, connection, TLS or timeout. */
  error: string | null;
  /** The first 500 characters of the response body (null without an answer). */
  responseExcerpt: string | null;
}

export interface WebhookSender {
  /** Never throws for network outcomes: every failure is described in the result. */
  send(input: WebhookSendInput): Promise<WebhookSendResult>;
}

/** A 2xx is success; anything else (3xx included: redirects are not followed), or no answer, is a failure. */
export function isSuccessfulSend(result: WebhookSendResult): boolean {
  return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_CHARS = 500;
export const WEBHOOK_USER_AGENT = 'mailservice-webhooks/1';
