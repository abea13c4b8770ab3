/**
 * API mappings of a custom domain name (https://docs.aws.amazon.com/apigatewayv2/latest/api-reference/domainnames-domainname-apimappings.html
 * and .../domainnames-domainname-apimappings-apimappingid.html):
 * - CreateApiMapping (201): `apiId` and `stage` required; an API or stage the local cloud did not deploy:
 *   NotFoundException (as AWS answers an API id of no API of the account); a second mapping with the same
 *   `apiMappingKey`: ConflictException. Only the empty key is emulated (the whole domain name to one API;
 *   path-based keys are refused, BadRequestException, rather than routed wrong).
 * - GetApiMappings (paged), GetApiMapping, DeleteApiMapping (204).
 */
import { ApiGatewayFault, badRequest } from './errors';
import { page } from './paging';
import { randomId } from './regional-endpoints';
import type { ApiGatewayState } from './state';
import type { ApiMapping, DomainNameRecord } from './types';

type Body = Record<string, unknown>;

export function createApiMapping(state: ApiGatewayState, record: DomainNameRecord, body: Body): ApiMapping {
  const { apiId, stage } = body;
  if (typeof apiId !== 'string' || apiId === '') throw badRequest('apiId is required.');
  if (typeof stage !== 'string' || stage === '') throw badRequest('stage is required.');
  const key = body.apiMappingKey ?? '';
  if (typeof key !== 'string') throw badRequest('apiMappingKey must be a string.');
  if (key !== '')
    throw badRequest(`apiMappingKey '${key}': API mappings with a path are not emulated by the local API Gateway (the empty key only).`);
  const stages = state.apis.get(apiId);
  if (!stages) throw new ApiGatewayFault('NotFoundException', `Invalid API identifier specified ${state.accountId}:${apiId}`, 'Api');
  if (!stages.has(stage)) throw new ApiGatewayFault('NotFoundException', `Invalid stage identifier specified: ${stage}`, 'Stage');
  if (record.mappings.some((mapping) => mapping.apiMappingKey === key))
    throw new ApiGatewayFault(
      'ConflictException',
      `The API mapping already exists for the domain name ${record.domainName} and key '${key}'.`,
    );
  const mapping: ApiMapping = { apiId, apiMappingId: randomId(6), apiMappingKey: key, stage };
  record.mappings.push(mapping);
  state.save();
  return mapping;
}

export function getApiMappings(record: DomainNameRecord, query: URLSearchParams): Body {
  return page(record.mappings, query) as unknown as Body;
}

export function apiMappingOf(record: DomainNameRecord, apiMappingId: string): ApiMapping {
  const mapping = record.mappings.find((m) => m.apiMappingId === apiMappingId);
  if (!mapping)
    throw new ApiGatewayFault('NotFoundException', 'The api mapping resource specified in the request was not found.', 'ApiMapping');
  return mapping;
}

export function deleteApiMapping(state: ApiGatewayState, record: DomainNameRecord, apiMappingId: string): void {
  const mapping = apiMappingOf(record, apiMappingId);
  record.mappings.splice(record.mappings.indexOf(mapping), 1);
  state.save();
}
