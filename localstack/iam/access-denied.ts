/**
 * A denied call fails exactly as on AWS: the middleware answers in place of the HTTP handler with the
 * response AWS sends for AccessDenied in that service's protocol, and the SDK's own deserializer turns it
 * into the service's exception (name, status, `$fault: 'client'`, not retried). Shapes verified with the
 * project's SDK version (docs/local-cloud/iam.md, "How a denial looks"):
 * - DynamoDB / DynamoDB Streams (awsJson1_0): 400, `__type` com.amazon.coral.service#AccessDeniedException
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/CommonErrors.html).
 * - SQS (JSON protocol, query-compatible): 400 with `x-amzn-query-error: AccessDenied;Sender`, so the
 *   exception's name is the query-protocol code AccessDenied
 *   (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/CommonErrors.html).
 * - S3 (restXml): 403 `<Error><Code>AccessDenied</Code>`; HEAD answers carry no body
 *   (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html, API_HeadObject.html).
 * - SES v2, EventBridge Scheduler (restJson1): 403 with `x-amzn-errortype: AccessDeniedException`
 *   (https://docs.aws.amazon.com/ses/latest/APIReference-V2/CommonErrors.html).
 * - KMS, ACM (awsJson1_1): 400 AccessDeniedException (https://docs.aws.amazon.com/kms/latest/APIReference/CommonErrors.html,
 *   https://docs.aws.amazon.com/acm/latest/APIReference/CommonErrors.html). The SDK names the error from
 *   `__type` (ACM's model gives its AccessDeniedException an httpError of 403; the status does not choose
 *   the class, and the common errors page says 400).
 * - API Gateway v2 (restJson1): 403 with `x-amzn-errortype: AccessDeniedException` and `message`
 *   (https://docs.aws.amazon.com/apigatewayv2/latest/api-reference/domainnames.html, "AccessDeniedException 403").
 * - SNS (awsQuery): 403 `<ErrorResponse><Error><Type>Sender</Type><Code>AuthorizationError</Code>`
 *   (https://docs.aws.amazon.com/sns/latest/api/API_Publish.html#API_Publish_Errors).
 * - Route 53 (restXml): 403 `<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code>`
 *   (https://docs.aws.amazon.com/Route53/latest/APIReference/CommonErrors.html).
 *
 * The message is AWS's: "User: <session ARN> is not authorized to perform: <action> on resource: <arn>
 * because no identity-based policy allows the <action> action" / "with an explicit deny in an
 * identity-based policy" (https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html).
 */
import { randomUUID } from 'node:crypto';
import { XMLBuilder } from 'fast-xml-parser';
import type { Decision } from './evaluate';

/** The SDK's HttpResponse, structurally (the deserializers accept any object of this shape). */
export interface SynthesizedResponse {
  statusCode: number;
  reason?: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

export function accessDeniedMessage(
  sessionArn: string,
  action: string,
  resource: string,
  decision: Pick<Decision, 'effect' | 'deniedBy'>,
): string {
  const head = `User: ${sessionArn} is not authorized to perform: ${action} on resource: ${resource}`;
  const kind = decision.deniedBy === 'resource' ? 'resource-based' : 'identity-based';
  if (decision.effect === 'ExplicitDeny')
    return `${head} with an explicit deny in ${kind === 'resource-based' ? 'a' : 'an'} ${kind} policy`;
  return `${head} because no ${kind} policy allows the ${action} action`;
}

/** The XML error documents (S3, SNS, Route 53): compact, text escaped for XML's five characters, xmlns from an `@_` key. */
const xml = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_' });

function response(statusCode: number, headers: Record<string, string>, body: string): SynthesizedResponse {
  const bytes = Buffer.from(body, 'utf8');
  return {
    statusCode,
    reason: statusCode === 403 ? 'Forbidden' : 'Bad Request',
    headers: { ...headers, 'content-length': String(bytes.length), 'x-amzn-requestid': randomUUID() },
    body: bytes,
  };
}

const json10 = (message: string, extra: Record<string, string> = {}) =>
  response(
    400,
    { 'content-type': 'application/x-amz-json-1.0', ...extra },
    JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', Message: message }),
  );

const restJson = (message: string) =>
  response(403, { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException' }, JSON.stringify({ message }));

const errorResponseXml = (namespace: string, code: string, message: string) =>
  response(
    403,
    { 'content-type': 'text/xml' },
    `<?xml version="1.0"?>\n${xml.build({ ErrorResponse: { '@_xmlns': namespace, Error: { Type: 'Sender', Code: code, Message: message }, RequestId: randomUUID() } })}`,
  );

/** The AccessDenied answer of the service behind `clientName` (`DynamoDBClient`, `S3Client`...); undefined for a client this module does not know. */
export function accessDeniedResponse(clientName: string, commandName: string, message: string): SynthesizedResponse | undefined {
  switch (clientName) {
    case 'DynamoDBClient':
    case 'DynamoDBStreamsClient':
      return json10(message);
    case 'SQSClient':
      return json10(message, { 'x-amzn-query-error': 'AccessDenied;Sender' });
    case 'S3Client':
      if (commandName === 'HeadObjectCommand') return response(403, {}, '');
      return response(
        403,
        { 'content-type': 'application/xml' },
        `<?xml version="1.0" encoding="UTF-8"?>\n${xml.build({ Error: { Code: 'AccessDenied', Message: message, RequestId: randomUUID(), HostId: 'local' } })}`,
      );
    case 'SESv2Client':
    case 'SchedulerClient':
    case 'ApiGatewayV2Client':
      return restJson(message);
    case 'KMSClient':
    case 'ACMClient':
      return response(400, { 'content-type': 'application/x-amz-json-1.1' }, JSON.stringify({ __type: 'AccessDeniedException', message }));
    case 'SNSClient':
      return errorResponseXml('http://sns.amazonaws.com/doc/2010-03-31/', 'AuthorizationError', message);
    case 'Route53Client':
      return errorResponseXml('https://route53.amazonaws.com/doc/2013-04-01/', 'AccessDenied', message);
    default:
      return undefined;
  }
}
