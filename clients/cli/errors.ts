/**
 * How a failure reaches the user: the API's message, code and hint on stderr (or its error envelope as
 * JSON with --json), and the exit status: 1 for a failure, 2 for a usage error (as commander's own).
 */
import { ApiError } from '../api/client';
import type { CliIo } from './io';

/** A mistake in how the command was called (a bad flag value, a missing argument): exit status 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** A failure of the CLI's own (a file it cannot read, a CSV with no email column): exit status 1. */
export class CliFailure extends Error {
  readonly exitCode = 1;
}

interface Envelope {
  message?: string;
  code?: string;
  hint?: string;
  details?: { fields?: { field: string; message: string }[] } & Record<string, unknown>;
}

function envelopeOf(error: ApiError): Envelope {
  const body = error.body as { error?: Envelope } | undefined;
  return typeof body === 'object' && body !== null && typeof body.error === 'object' ? body.error : {};
}

/** The lines a failure prints: message (code, HTTP status), each field's problem, the hint. */
export function describeError(error: unknown): string[] {
  if (error instanceof ApiError) {
    const envelope = envelopeOf(error);
    const lines = [`Error: ${error.message} (${[error.code, `HTTP ${error.status}`].filter(Boolean).join(', ')})`];
    for (const field of envelope.details?.fields ?? []) lines.push(`  ${field.field}: ${field.message}`);
    if (envelope.hint) lines.push(`Hint: ${envelope.hint}`);
    if (error.retryAfterSeconds !== undefined) lines.push(`Retry after ${error.retryAfterSeconds} s.`);
    return lines;
  }
  if (error instanceof Error && (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') {
    return [
      `Error: cannot reach the API (${error.message}: connection refused). Is the service running, and is the base URL right (--base-url, MAILSERVICE_BASE_URL)?`,
    ];
  }
  return [`Error: ${error instanceof Error ? error.message : String(error)}`];
}

/** Prints the failure and answers the exit status. */
export function reportError(io: CliIo, error: unknown, json: boolean): number {
  if (json && error instanceof ApiError) {
    io.err(
      `${JSON.stringify(typeof error.body === 'object' && error.body !== null ? error.body : { error: { message: error.message } })}\n`,
    );
  } else {
    io.err(`${describeError(error).join('\n')}\n`);
  }
  return error instanceof UsageError ? 2 : 1;
}
