/**
 * What the SES emulator reads of a request before an operation runs: the path's segments (each decoded;
 * a malformed one is 400 BadRequestException), and, when an operation asks for it, the body, capped so a
 * 40 MB message fits in base64 (over: 413 MessageRejected, answered by ./server.ts), as a JSON object
 * (else 400 SerializationException) or a form.
 */
import type * as http from 'node:http';
import { readBodyUpTo } from '../http-server';
import { SesError } from './errors';
import { MAX_MESSAGE_BYTES } from './message-limits';
import { isObject, type Json } from './validate';

/** Base64 grows 4/3; leave room for the rest of the JSON body. */
const MAX_BODY_BYTES = Math.ceil((MAX_MESSAGE_BYTES * 4) / 3) + 1024 * 1024;

/** What an operation may read of its request: the path's parameters, the query, and the body when it asks. */
export interface SesRequest {
  /** The route's `{Name}` path segments, decoded, in order. */
  params: string[];
  query: URLSearchParams;
  requestId: string;
  /** The body as a JSON object ({} when empty). */
  json(): Promise<Json>;
  /** The body as a form (the SES v1 Query API's). */
  form(): Promise<URLSearchParams>;
}

export class BodyTooLarge extends Error {}

export async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const { body, tooLarge } = await readBodyUpTo(req, MAX_BODY_BYTES);
  if (tooLarge) throw new BodyTooLarge();
  return body;
}

export async function readJson(req: http.IncomingMessage): Promise<Json> {
  const body = await readBody(req);
  if (body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new SesError('SerializationException', 'The request body is not valid JSON.');
  }
  if (!isObject(parsed)) throw new SesError('SerializationException', 'The request body must be a JSON object.');
  return parsed;
}

/** The path's non-empty segments, each percent-decoded. */
export function pathSegments(pathname: string): string[] {
  return pathname
    .split('/')
    .filter((s) => s.length > 0)
    .map(decodeSegment);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new SesError('BadRequestException', `Malformed path segment '${segment}'.`);
  }
}

/** A PageSize from a query or a body: undefined when absent or empty, else an integer. */
export function optInt(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new SesError('BadRequestException', 'PageSize must be an integer.');
  return n;
}

/** A NextToken from a JSON body: a string, else none. */
export function bodyToken(body: Json): string | undefined {
  return typeof body.NextToken === 'string' ? body.NextToken : undefined;
}
