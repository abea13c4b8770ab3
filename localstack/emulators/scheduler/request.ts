/**
 * A Scheduler request as an operation gets it (the path's parameters decoded, the query, the JSON body),
 * and the reading of its parts: a path parameter that is not valid percent-encoding, a body over 1 MiB, not
 * JSON or not a JSON object are ValidationException; an empty body is `{}`.
 */
import type http from 'node:http';
import { readBodyUpTo } from '../http-server';
import { validation } from './errors';
import { isObject, type JsonObject } from './validation';

const MAX_BODY_BYTES = 1024 * 1024;

export interface SchedulerRequest {
  params: string[];
  query: URLSearchParams;
  body: JsonObject;
}

/** The path's captures, percent-decoded. */
export function decodeParams(raw: string[]): string[] {
  return raw.map((param) => {
    try {
      return decodeURIComponent(param);
    } catch {
      throw validation(`Malformed path parameter ${param}.`);
    }
  });
}

export async function readJson(req: http.IncomingMessage): Promise<JsonObject> {
  const { body, tooLarge } = await readBodyUpTo(req, MAX_BODY_BYTES);
  if (tooLarge) throw validation(`Request body larger than ${MAX_BODY_BYTES} bytes.`);
  const text = body.toString('utf8').trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw validation('Request body is not valid JSON.');
  }
  if (!isObject(parsed)) throw validation('Request body must be a JSON object.');
  return parsed;
}
