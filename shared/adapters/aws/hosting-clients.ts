/**
 * The clients of hosted MTA-STS policy hosts (./client-options.ts): ACM and API Gateway (v2).
 */
import { ACMClient } from '@aws-sdk/client-acm';
import { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import type { Config } from '../../config/config';
import { withClientHooks } from './client-hooks';
import { clientOptions } from './client-options';

/** ACM: the certificates of hosted MTA-STS policy hosts (docs/deliverability.md, "Hosted MTA-STS policy"). */
export function createAcmClient(config: Config): ACMClient {
  return withClientHooks(new ACMClient(clientOptions(config, 'acm')));
}

/** API Gateway (v2): the custom domain names of hosted MTA-STS policy hosts and their API mappings. */
export function createApiGatewayV2Client(config: Config): ApiGatewayV2Client {
  return withClientHooks(new ApiGatewayV2Client(clientOptions(config, 'apigatewayv2')));
}
