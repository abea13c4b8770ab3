/**
 * Two limits AWS enforces between API Gateway (HTTP API, Lambda proxy integration, payload format 2.0)
 * and a function, applied by the local gateway (../api/api-server.ts) to every API handler's answer, so a
 * handler that would fail on AWS fails here the same way.
 *
 * 1. **Response payload size.** A synchronous invocation returns at most 6 MB
 *    (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html, "Invocation payload
 *    (request and response): 6 MB each for request and response (synchronous)"). Lambda measures the
 *    function's serialized result: for an HTTP API handler that is the JSON of the structured result
 *    object, `{statusCode, headers, cookies, body, isBase64Encoded}`, so a text body counts JSON-escaped
 *    (every `"` and `\` twice, control characters six times) and a binary one as its base64. Lambda's
 *    error names the exact figure: "Response payload size exceeded maximum allowed payload size
 *    (6291556 bytes)" (Function.ResponseSizeTooLarge). The invocation then fails and API Gateway HTTP
 *    API answers `500 {"message":"Internal Server Error"}`
 *    (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-troubleshooting-lambda.html).
 * 2. **Integration timeout.** An HTTP API waits at most 30 seconds for an integration
 *    (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html, "Maximum
 *    integration timeout: 30 seconds"), then answers `503 {"message":"Service Unavailable"}` while the
 *    function may still run to its own timeout. `LOCAL_API_INTEGRATION_TIMEOUT_MS` lowers it for tests
 *    (never above AWS's 30 s: the local cloud is as strict as AWS, never more lenient).
 * 3. **A failed invocation** (the handler threw, or ran past its function's own Timeout, 29 s for the API
 *    functions: ./lambda-timeout.ts) is a Lambda error, which HTTP API answers `500 {"message":"Internal
 *    Server Error"}` (the troubleshooting page above).
 *
 * The gateway's answers are API Gateway's own bodies, not the product's error envelope: the product's
 * answer at these limits is its own concern (shared/doors/http/lambda-response-budget.ts and each endpoint's
 * links, pages and truncation; docs/deploy.md "AWS limits").
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** Lambda's synchronous response payload limit, in bytes, as Lambda's ResponseSizeTooLarge error states it. */
export const LAMBDA_SYNC_RESPONSE_MAX_BYTES = 6_291_556;

/** API Gateway HTTP API's integration timeout (its maximum, and what this stack's routes use). */
export const HTTP_API_INTEGRATION_TIMEOUT_MS = 30_000;

export const INTEGRATION_TIMEOUT_ENV = 'LOCAL_API_INTEGRATION_TIMEOUT_MS';

type HandlerResult = APIGatewayProxyStructuredResultV2 | string | undefined;

/** API Gateway HTTP API's answer when the Lambda invocation failed (here: its response was too large). */
export const INTERNAL_SERVER_ERROR: APIGatewayProxyStructuredResultV2 = {
  statusCode: 500,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message: 'Internal Server Error' }),
};

/** API Gateway HTTP API's answer when the integration did not answer within the timeout. */
export const SERVICE_UNAVAILABLE: APIGatewayProxyStructuredResultV2 = {
  statusCode: 503,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message: 'Service Unavailable' }),
};

/** The size Lambda counts for a handler's result: its JSON serialization, in UTF-8 bytes. */
export function lambdaResponsePayloadBytes(result: HandlerResult): number {
  return result === undefined ? 4 /* null */ : Buffer.byteLength(JSON.stringify(result), 'utf8');
}

/** The integration timeout in force: `LOCAL_API_INTEGRATION_TIMEOUT_MS` when set (1 ms to 30 s), else 30 s. */
export function integrationTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[INTEGRATION_TIMEOUT_ENV];
  if (raw === undefined || raw === '') return HTTP_API_INTEGRATION_TIMEOUT_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > HTTP_API_INTEGRATION_TIMEOUT_MS) {
    throw new Error(
      `${INTEGRATION_TIMEOUT_ENV} must be an integer from 1 to ${HTTP_API_INTEGRATION_TIMEOUT_MS} (API Gateway's maximum), got "${raw}"`,
    );
  }
  return value;
}

/**
 * Runs one invocation as API Gateway sees it: the handler's result when it came in time and within the
 * payload limit; 503 when the timeout passed first (the handler keeps running, as the function would);
 * 500 when the result is over LAMBDA_SYNC_RESPONSE_MAX_BYTES. `log` hears why a 500/503 was given.
 */
export async function invokeWithinLimits(
  invoke: () => Promise<HandlerResult>,
  log: (message: string) => void,
  timeoutMs: number = integrationTimeoutMs(),
): Promise<HandlerResult> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  // A failed invocation (the handler threw, or ran past its function's timeout) is API Gateway's bare 500:
  // "Internal Server Error" for any Lambda error (http-api-troubleshooting-lambda.html, above).
  const running = invoke().catch((error: unknown) => {
    log(`api: the function's invocation failed (${(error as Error).name}: ${(error as Error).message}; API Gateway answers 500)`);
    return INTERNAL_SERVER_ERROR;
  });
  try {
    const outcome = await Promise.race([running, timedOut]);
    if (outcome === 'timeout') {
      log(`api: integration timeout: no answer within ${timeoutMs} ms (API Gateway answers 503)`);
      return SERVICE_UNAVAILABLE;
    }
    const bytes = lambdaResponsePayloadBytes(outcome);
    if (bytes > LAMBDA_SYNC_RESPONSE_MAX_BYTES) {
      log(
        `api: Function.ResponseSizeTooLarge: response payload ${bytes} bytes exceeds ${LAMBDA_SYNC_RESPONSE_MAX_BYTES} (API Gateway answers 500)`,
      );
      return INTERNAL_SERVER_ERROR;
    }
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}
