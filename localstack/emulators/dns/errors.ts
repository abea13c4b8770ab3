/**
 * Errors of the control API. A DnsRecordError is the caller's fault (a 400 when the local cloud's
 * HTTP server exposes the API); its message says what is wrong and where. Over HTTP every refusal is
 * `400 {"error": {"message", "code": "validation_error"}}` (controlError).
 */
import type { ControlReply } from './types';

export class DnsRecordError extends Error {
  readonly status = 400;
  constructor(message: string) {
    super(message);
    this.name = 'DnsRecordError';
  }
}

/** A packet that does not parse as a DNS message. */
export class DnsFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DnsFormatError';
  }
}

/** The control API's refusal: 400 validation_error with the message. */
export function validationError(message: string): ControlReply {
  return { status: 400, body: { error: { message, code: 'validation_error' } } };
}

/** What an operation of the control API failed with, as the API answers it (any error: 400, its message). */
export function controlError(error: unknown): ControlReply {
  return validationError((error as Error).message);
}
