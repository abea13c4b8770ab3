/**
 * The MTA-STS function: the one route of the MTA-STS HTTP API (infra/definitions/mta-sts.ts MTA_STS_API), reached only
 * through the custom domain names `mta-sts.inbound.<domain>` (docs/deliverability.md, "Hosted MTA-STS policy").
 * It reads the table only, by the host API Gateway was asked for.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { buildMtaStsHosting } from '#shared/services/mta-sts-hosting';
import { buildPlatform } from '#shared/services/platform';
import { servePolicy } from '#shared/usecases/domains/mta-sts/serve-policy';

// The composition root: the table only, built once per cold start.
const deps = buildMtaStsHosting(buildPlatform());

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const answer = await servePolicy(deps, event.requestContext?.domainName ?? event.headers?.host);
  return { statusCode: answer.status, headers: answer.headers, body: answer.body };
};
