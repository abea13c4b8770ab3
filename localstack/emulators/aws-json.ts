/**
 * The AWS JSON 1.1 protocol (https://smithy.io/2.0/aws/protocols/aws-json-1_1-protocol.html) for the
 * emulators that speak it (ACM): every request a POST to `/` naming its operation in
 * `X-Amz-Target: <Prefix>.<Operation>` with a JSON object body; answers `application/x-amz-json-1.1`, errors
 * `{"__type": "<ErrorName>", "message"}` with their status, from which the SDK builds its exception
 * classes (so callers see `err.name` as against AWS). An unknown target is UnknownOperationException, a
 * body that is not a JSON object SerializationException (the protocol's own errors).
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An error the service answers: its name (`__type`), message and HTTP status (400 unless said). */
export class AwsJsonError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Larger than any request the emulated operations take. Ours. */
const MAX_BODY_BYTES = 1024 * 1024;
const CONTENT_TYPE = 'application/x-amz-json-1.1';

/** The request's JSON object (an empty body is `{}`); SerializationException for anything else, or a body over `maxBytes`. */
export function readJsonObject(raw: Buffer, maxBytes: number): JsonObject {
  if (raw.length > maxBytes) throw new AwsJsonError('SerializationException', `Request body larger than ${maxBytes} bytes.`);
  const text = raw.toString('utf8').trim();
  let body: unknown = {};
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw new AwsJsonError('SerializationException', 'Request body is not valid JSON.');
    }
  }
  if (!isJsonObject(body)) throw new AwsJsonError('SerializationException', 'Request body must be a JSON object.');
  return body;
}

export type AwsJsonOperation = (body: JsonObject) => JsonObject | Promise<JsonObject>;

/** The request handler for serveHttp (./http-server.ts): `operations` by name, under `targetPrefix` (`CertificateManager`). */
export function awsJsonHandler(options: {
  targetPrefix: string;
  operations: Record<string, AwsJsonOperation>;
  internalError: string;
  log: (msg: string) => void;
}) {
  const prefix = `${options.targetPrefix}.`;
  const answer = async (req: http.IncomingMessage, raw: Buffer): Promise<JsonObject> => {
    const target = String(req.headers['x-amz-target'] ?? '');
    const name = target.startsWith(prefix) ? target.slice(prefix.length) : '';
    const operation = req.method === 'POST' && Object.hasOwn(options.operations, name) ? options.operations[name] : undefined;
    if (!operation) throw new AwsJsonError('UnknownOperationException', `No operation ${target || '(no X-Amz-Target)'} in this emulator.`);
    return operation(readJsonObject(raw, MAX_BODY_BYTES));
  };
  return (req: http.IncomingMessage, raw: Buffer, res: http.ServerResponse): void => {
    answer(req, raw).then(
      (payload) => send(res, 200, payload),
      (err: unknown) => {
        if (err instanceof AwsJsonError) return send(res, err.status, { __type: err.errorName, message: err.message });
        options.log(`${String(req.headers['x-amz-target'])} failed: ${err instanceof Error ? err.stack : String(err)}`);
        send(res, 500, { __type: options.internalError, message: 'Internal error in the local emulator.' });
      },
    );
  };
}

function send(res: http.ServerResponse, status: number, payload: JsonObject): void {
  if (res.headersSent) return;
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': CONTENT_TYPE, 'content-length': Buffer.byteLength(text), 'x-amzn-requestid': randomUUID() });
  res.end(text);
}

/**
 * A member that violates its constraint, in AWS's words for its JSON protocols: `1 validation error
 * detected: Value 'x' at 'domainName' failed to satisfy constraint: Member must ...` (member paths with a
 * lower-case first letter), a ValidationException.
 */
export function constraintError(member: string, value: unknown, rule: string): AwsJsonError {
  const path = member.charAt(0).toLowerCase() + member.slice(1);
  const shown = value === undefined || value === null ? ' null' : ` '${String(value)}'`;
  return new AwsJsonError(
    'ValidationException',
    `1 validation error detected: Value${shown} at '${path}' failed to satisfy constraint: ${rule}`,
  );
}

/** A string member within `min`..`max` characters matching `pattern` (the whole value) when given; undefined when absent. */
export function optionalString(body: JsonObject, member: string, rule: { min: number; max: number; pattern?: RegExp }): string | undefined {
  const v = body[member];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new AwsJsonError('SerializationException', `${member} must be a string.`);
  if (v.length < rule.min) throw constraintError(member, v, `Member must have length greater than or equal to ${rule.min}`);
  if (v.length > rule.max) throw constraintError(member, v, `Member must have length less than or equal to ${rule.max}`);
  if (rule.pattern && !new RegExp(`^(?:${rule.pattern.source})$`).test(v))
    throw constraintError(member, v, `Member must satisfy regular expression pattern: ${rule.pattern.source}`);
  return v;
}

export function requiredString(body: JsonObject, member: string, rule: { min: number; max: number; pattern?: RegExp }): string {
  const v = optionalString(body, member, rule);
  if (v === undefined) throw constraintError(member, undefined, 'Member must not be null');
  return v;
}
