/**
 * How large an API answer is as a Lambda response payload, the size Lambda's 6 MB synchronous limit
 * counts (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html). Lambda serializes the
 * handler's result (`{statusCode, headers, body, isBase64Encoded, ...}`) as JSON, so a text body counts
 * JSON-escaped once more (a JSON answer's `"` and `\` count twice, a control character six times) and a
 * binary body as base64. Pure: the use cases size their answers with it (links instead of inline
 * content), the HTTP frame measures every answer with it (shared/doors/http/lambda-response-budget.ts).
 */

/** 6 MB, read as 6 MiB (Lambda's own error states 6,291,556 bytes: this is 100 bytes stricter). */
export const LAMBDA_RESPONSE_MAX_BYTES = 6 * 1024 * 1024;

/** What a body may take in the payload: the limit less room for the status, headers, cookies and the result's JSON around the body. */
export const RESPONSE_BODY_BUDGET_BYTES = LAMBDA_RESPONSE_MAX_BYTES - 64 * 1024;

/** What a list page's items may take (the list's own fields and the page's `has_more`/`next_cursor` fit in the rest). */
export const LIST_ITEMS_BUDGET_BYTES = RESPONSE_BODY_BUDGET_BYTES - 16 * 1024;

/** Bytes a text body takes inside Lambda's serialized result (JSON-escaped, UTF-8). */
export function textPayloadBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text), 'utf8');
}

/** Bytes a JSON answer (`c.json(value)`) takes inside Lambda's serialized result. */
export function jsonPayloadBytes(value: unknown): number {
  return textPayloadBytes(JSON.stringify(value));
}
