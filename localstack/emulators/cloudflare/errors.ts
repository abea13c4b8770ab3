/**
 * The fake Cloudflare API's errors, in Cloudflare's v4 envelope (./envelope.ts): `{success: false, errors:
 * [{code, message, error_chain?}], messages: [], result: null}`. A failure is a CloudflareFault (HTTP status,
 * Cloudflare's error code, message, and the error chain some errors carry); anything unexpected is 500
 * code 10001.
 */
import type { CloudflareReply } from './envelope';

export class CloudflareFault extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly chain?: { code: number; message: string }[],
  ) {
    super(message);
  }
}

const failed = (status: number, error: Record<string, unknown>): CloudflareReply => ({
  status,
  body: { success: false, errors: [error], messages: [], result: null },
});

export const faultReply = (fault: CloudflareFault): CloudflareReply =>
  failed(fault.status, { code: fault.code, message: fault.message, ...(fault.chain ? { error_chain: fault.chain } : {}) });

/** The answer to anything unexpected (the fake's own failure, which the caller logs). */
export const internalErrorReply = (): CloudflareReply => failed(500, { code: 10001, message: 'Internal error in the Cloudflare fake' });
