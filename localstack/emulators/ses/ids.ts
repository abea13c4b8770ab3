import { randomUUID } from 'node:crypto';

/**
 * An SES-style id: `01` + the time in ms as 14 hex digits, a UUID and `-000000`,
 * e.g. `0100018f3b2a1c4d-1b9f6a3e-5c2d-4e8f-9a7b-3c1d2e4f5a6b-000000`. Used for message ids
 * and feedback ids.
 */
export function sesId(now: number = Date.now()): string {
  return `01${now.toString(16).padStart(14, '0')}-${randomUUID()}-000000`;
}

/** A request id for the x-amzn-requestid header. */
export function requestId(): string {
  return randomUUID();
}
