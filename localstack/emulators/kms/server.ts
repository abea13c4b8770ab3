/**
 * HTTP front of the emulator, in the AWS JSON 1.1 protocol KMS speaks
 * (https://smithy.io/2.0/aws/protocols/aws-json-1_1-protocol.html): each request routed by its
 * `X-Amz-Target` (./routes.ts) to its operation with its JSON body; answers are JSON
 * (`application/x-amz-json-1.1`), errors `{"__type", "message"}` with their status (errors.ts).
 * Authentication is not checked here (the local cloud's IAM evaluator authorises SDK calls before they are
 * sent). Mutating operations answer only once their change is on disk (store.ts).
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { AwsJsonError, readJsonObject } from '../aws-json';
import { serveHttp } from '../http-server';
import { errorResponse, KmsError } from './errors';
import { findRoute } from './routes';
import type { KmsState } from './state';
import type { JsonObject } from './types';

/** Larger than any valid request: 4096-byte plaintexts and 131072-character policies, base64 and JSON. Ours. */
const MAX_BODY_BYTES = 1024 * 1024;
const CONTENT_TYPE = 'application/x-amz-json-1.1';

export function serveKms(options: { port?: number; host?: string }, state: KmsState): Promise<{ url: string; stop(): Promise<void> }> {
  return serveHttp(options, (req, body, res) => {
    handle(req, body, state).then(
      (payload) => send(res, 200, payload),
      (err: unknown) => {
        if (!(err instanceof AwsJsonError))
          state.log(`kms: ${String(req.headers['x-amz-target'])} failed: ${err instanceof Error ? err.stack : String(err)}`);
        const { status, payload } = errorResponse(err);
        send(res, status, payload);
      },
    );
  });
}

async function handle(req: http.IncomingMessage, raw: Buffer, state: KmsState): Promise<JsonObject> {
  const target = String(req.headers['x-amz-target'] ?? '');
  const route = findRoute(req.method, target);
  if (!route) {
    throw new KmsError('UnknownOperationException', `No operation ${target || '(no X-Amz-Target)'} in the local KMS emulator.`);
  }
  const payload = route.operation(state, readJsonObject(raw, MAX_BODY_BYTES));
  if (route.mutates) await state.store.persist();
  return payload;
}

function send(res: http.ServerResponse, status: number, payload: JsonObject): void {
  if (res.headersSent) return;
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': CONTENT_TYPE, 'content-length': Buffer.byteLength(text), 'x-amzn-requestid': randomUUID() });
  res.end(text);
}
