/**
 * A Scheduler request as an operation gets it (the path's parameters decoded, the query, the JSON body),
 * and the reading of its parts: a path parameter that is not valid percent-encoding, a body over 1 MiB, not
 * JSON or not a JSON object are ValidationException; an empty body is `{}`.
 */
import type http from 'node:http';
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

export function readJson(req: http.IncomingMessage): Promise<JsonObject> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (tooLarge) return reject(validation(`Request body larger than ${MAX_BODY_BYTES} bytes.`));
      const text = Buffer.concat(chunks).toString('utf8').trim();
      if (text === '') return resolve({});
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return reject(validation('Request body is not valid JSON.'));
      }
      if (!isObject(parsed)) return reject(validation('Request body must be a JSON object.'));
      resolve(parsed);
    });
  });
}
