/**
 * Invokes an API Lambda handler the way API Gateway HTTP API (payload format 2.0) does: a Node request
 * becomes an APIGatewayProxyEventV2, the handler's result becomes the Node response.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID } from '../constants';

export type ApiHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2 | string | undefined>;

const TEXT_TYPES = /^(text\/|application\/(json|[a-z.+-]*\+json|x-www-form-urlencoded|xml|javascript))/i;
/** API Gateway's payload limit. */
/**
 * API Gateway (HTTP API) takes 10 MB, but a synchronous Lambda invocation takes at most 6 MB of payload,
 * so in AWS a request body above ~6 MB never reaches the function: the local gateway refuses it the same.
 */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

export class PayloadTooLarge extends Error {}

/**
 * The request body, or PayloadTooLarge as soon as it passes MAX_BODY_BYTES. The stream is left open (not
 * destroyed, as leaving a for-await loop would), so the caller can drain it and keep the connection.
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        req.off('end', onEnd);
        req.pause();
        reject(new PayloadTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}

export function lambdaContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  const requestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:${LOCAL_ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** A request on a custom domain name: the name (its Host and requestContext.domainName, as API Gateway gives them) and the API it is mapped to. */
export interface EventDomain {
  domainName: string;
  apiId: string;
  stage: string;
}

export async function toApiGatewayEvent(
  req: IncomingMessage,
  routeKey: string,
  pathParameters: Record<string, string>,
  domain?: EventDomain,
): Promise<APIGatewayProxyEventV2> {
  const url = new URL(req.url ?? '/', 'http://local');
  const body = await readBody(req);
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') cookies.push(...String(value).split(/;\s*/));
    else headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  if (domain) headers.host = domain.domainName;
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const isText = TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
  const now = new Date();
  const requestId = randomUUID();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: domain?.apiId ?? 'local',
      domainName: domain?.domainName ?? headers.host ?? 'localhost',
      domainPrefix: domain ? domain.domainName.split('.')[0]! : 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: domain?.stage ?? '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length
      ? { body: isText ? body.toString('utf8') : body.toString('base64'), isBase64Encoded: !isText }
      : { isBase64Encoded: false }),
  };
}

export function writeLambdaResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2 | string | undefined): void {
  if (typeof result === 'string' || result === undefined) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(result ?? '');
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined);
}
