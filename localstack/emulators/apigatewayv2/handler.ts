/**
 * The HTTP front of the API Gateway V2 emulator: each request routed to its action (./routes.ts) and
 * answered REST-JSON (`application/json`, `x-amzn-RequestId`); a failure is its status, `x-amzn-ErrorType`
 * and `{"message"}` (./errors.ts); a 5xx is logged. Authentication is not checked here (the local cloud's
 * IAM evaluator authorises SDK calls before they are sent).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiGatewayFault, badRequest } from './errors';
import { answerRequest, type ApiGatewayReply } from './routes';
import type { ApiGatewayState } from './state';

function readJson(raw: Buffer): Record<string, unknown> {
  const text = raw.toString('utf8').trim();
  let body: unknown = {};
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    throw badRequest('Could not parse request body into json.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

export function apiGatewayHandler(state: ApiGatewayState, log: (msg: string) => void) {
  const answer = async (req: IncomingMessage, raw: Buffer): Promise<ApiGatewayReply> => {
    const target = new URL(req.url ?? '/', 'http://apigateway.invalid');
    return answerRequest(state, req.method ?? 'GET', target.pathname, { query: target.searchParams, body: () => readJson(raw) });
  };
  return (req: IncomingMessage, raw: Buffer, res: ServerResponse): void => {
    const requestId = randomUUID();
    const write = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = body === undefined ? '' : JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-requestid': requestId, ...headers });
      res.end(text);
    };
    answer(req, raw).then(
      (reply) => write(reply.status, reply.body),
      (error: unknown) => {
        const fault = error instanceof ApiGatewayFault ? error : new ApiGatewayFault('InternalFailure', (error as Error).message);
        if (fault.status >= 500) log(`apigatewayv2: ${req.method} ${req.url} failed: ${(error as Error).stack ?? String(error)}`);
        write(
          fault.status,
          { message: fault.message, ...(fault.resourceType ? { resourceType: fault.resourceType } : {}) },
          { 'x-amzn-errortype': fault.errorName },
        );
      },
    );
  };
}
