/**
 * What every tool answers: a short text summary an agent can read at a glance plus the API's JSON, both as
 * text (for clients that read only content) and as structuredContent; an API error is a tool result with
 * `isError: true` carrying the error's message, code and hint (the agent can correct itself and retry),
 * never a thrown protocol error.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../api/client';

/** A successful tool answer: the summary first, then the data as JSON. */
export function okResult(summary: string, data: Record<string, unknown>): CallToolResult {
  return {
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: JSON.stringify(data, null, 2) },
    ],
    structuredContent: data,
  };
}

/** A refusal of the tool's own, before or between API calls (a domain name the account does not have). */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

interface ErrorEnvelope {
  message?: unknown;
  code?: unknown;
  hint?: unknown;
  details?: unknown;
}

/** The structured form of a failed call: {error: {status?, message, code?, hint?, details?, retry_after_seconds?}} (a ToolError: no status). */
export function errorData(error: unknown): { error: Record<string, unknown> } {
  if (error instanceof ApiError) {
    const envelope =
      (typeof error.body === 'object' && error.body !== null ? (error.body as { error?: ErrorEnvelope }).error : undefined) ?? {};
    return {
      error: {
        status: error.status,
        message: error.message,
        ...(error.code !== undefined ? { code: error.code } : {}),
        ...(typeof envelope.hint === 'string' ? { hint: envelope.hint } : {}),
        ...(envelope.details !== undefined ? { details: envelope.details } : {}),
        ...(error.retryAfterSeconds !== undefined ? { retry_after_seconds: error.retryAfterSeconds } : {}),
      },
    };
  }
  if (error instanceof ToolError) return { error: { message: error.message, code: error.code } };
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return {
    error: {
      message: `The mailservice API could not be reached: ${message}${cause}. Check the API URL (MAILSERVICE_BASE_URL for stdio) and that the API is running.`,
    },
  };
}

/** A failed call as a tool result (isError), its text saying what went wrong and what to do. */
export function errorResult(error: unknown): CallToolResult {
  const data = errorData(error);
  const { status, message, code, hint, details, retry_after_seconds } = data.error;
  const lines = [`Error${status !== undefined ? ` ${status}` : ''}${code !== undefined ? ` ${code}` : ''}: ${message}`];
  if (hint !== undefined) lines.push(`Hint: ${hint}`);
  const fields = (details as { fields?: { field: string; message: string }[] } | undefined)?.fields;
  if (Array.isArray(fields)) for (const field of fields.slice(0, 10)) lines.push(`- ${field.field}: ${field.message}`);
  if (retry_after_seconds !== undefined) lines.push(`Retry after ${retry_after_seconds} s.`);
  return {
    isError: true,
    content: [
      { type: 'text', text: lines.join('\n') },
      { type: 'text', text: JSON.stringify(data, null, 2) },
    ],
    structuredContent: data,
  };
}

/** Runs a tool's call: its answer, or the error as a tool result. */
export async function runTool(call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await call();
  } catch (error) {
    return errorResult(error);
  }
}
