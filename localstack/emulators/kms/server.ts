/**
 * HTTP front of the emulator: the AWS JSON 1.1 protocol KMS speaks
 * (https://smithy.io/2.0/aws/protocols/aws-json-1_1-protocol.html): every request is a POST to `/` with
 * the operation in the `X-Amz-Target: TrentService.<Operation>` header and a JSON body; answers are JSON
 * (`application/x-amz-json-1.1`), errors `{"__type", "message"}` with their status (errors.ts).
 * Authentication is not checked here (the local cloud's IAM evaluator authorises SDK calls before they
 * are sent). Mutating operations answer only once their change is on disk (store.ts).
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { AwsJsonError, readJsonObject } from '../aws-json';
import { serveHttp } from '../http-server';
import type { AliasOperations } from './aliases';
import type { CryptoOperations } from './cryptography';
import { KmsError } from './errors';
import type { KeyOperations } from './keys';
import type { KmsStore } from './store';
import type { JsonObject } from './types';

/** Larger than any valid request: 4096-byte plaintexts and 131072-character policies, base64 and JSON. Ours. */
const MAX_BODY_BYTES = 1024 * 1024;
const TARGET_PREFIX = 'TrentService.';
const CONTENT_TYPE = 'application/x-amz-json-1.1';

export interface Operations {
  keys: KeyOperations;
  aliases: AliasOperations;
  crypto: CryptoOperations;
}

interface Route {
  mutates: boolean;
  handle: (ops: Operations, body: JsonObject) => JsonObject;
}

const ROUTES: Record<string, Route> = {
  CreateKey: { mutates: true, handle: (o, b) => o.keys.createKey(b) },
  DescribeKey: { mutates: false, handle: (o, b) => o.keys.describeKey(b) },
  EnableKey: { mutates: true, handle: (o, b) => o.keys.enableKey(b) },
  DisableKey: { mutates: true, handle: (o, b) => o.keys.disableKey(b) },
  GetKeyPolicy: { mutates: false, handle: (o, b) => o.keys.getKeyPolicy(b) },
  PutKeyPolicy: { mutates: true, handle: (o, b) => o.keys.putKeyPolicy(b) },
  EnableKeyRotation: { mutates: true, handle: (o, b) => o.keys.enableKeyRotation(b) },
  DisableKeyRotation: { mutates: true, handle: (o, b) => o.keys.disableKeyRotation(b) },
  GetKeyRotationStatus: { mutates: false, handle: (o, b) => o.keys.getKeyRotationStatus(b) },
  CreateAlias: { mutates: true, handle: (o, b) => o.aliases.createAlias(b) },
  DeleteAlias: { mutates: true, handle: (o, b) => o.aliases.deleteAlias(b) },
  ListAliases: { mutates: false, handle: (o, b) => o.aliases.listAliases(b) },
  Encrypt: { mutates: false, handle: (o, b) => o.crypto.encrypt(b) },
  Decrypt: { mutates: false, handle: (o, b) => o.crypto.decrypt(b) },
  GenerateDataKey: { mutates: false, handle: (o, b) => o.crypto.generateDataKey(b) },
  GenerateDataKeyWithoutPlaintext: { mutates: false, handle: (o, b) => o.crypto.generateDataKey(b, false) },
  ReEncrypt: { mutates: false, handle: (o, b) => o.crypto.reEncrypt(b) },
};

export function serveKms(
  options: { port?: number; host?: string },
  ops: Operations,
  store: KmsStore,
  log: (msg: string) => void,
): Promise<{ url: string; stop(): Promise<void> }> {
  return serveHttp(options, (req, body, res) => {
    handle(req, body, ops, store).then(
      ({ status, payload }) => send(res, status, payload),
      (err: unknown) => {
        if (err instanceof AwsJsonError) return send(res, err.status, { __type: err.errorName, message: err.message });
        log(`kms: ${String(req.headers['x-amz-target'])} failed: ${err instanceof Error ? err.stack : String(err)}`);
        send(res, 500, { __type: 'KMSInternalException', message: 'Internal error in the local KMS emulator.' });
      },
    );
  });
}

async function handle(
  req: http.IncomingMessage,
  raw: Buffer,
  ops: Operations,
  store: KmsStore,
): Promise<{ status: number; payload: JsonObject }> {
  const target = String(req.headers['x-amz-target'] ?? '');
  const operation = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : '';
  const route = req.method === 'POST' && Object.hasOwn(ROUTES, operation) ? ROUTES[operation] : undefined;
  if (!route) {
    throw new KmsError('UnknownOperationException', `No operation ${target || '(no X-Amz-Target)'} in the local KMS emulator.`);
  }
  const payload = route.handle(ops, readJsonObject(raw, MAX_BODY_BYTES));
  if (route.mutates) await store.persist();
  return { status: 200, payload };
}

function send(res: http.ServerResponse, status: number, payload: JsonObject): void {
  if (res.headersSent) return;
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': CONTENT_TYPE, 'content-length': Buffer.byteLength(text), 'x-amzn-requestid': randomUUID() });
  res.end(text);
}
