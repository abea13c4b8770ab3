/**
 * The routing table of the API Gateway V2 emulator (REST-JSON under `/v2/domainnames`): method and path to
 * the action, the domain name a path names looked up before the method (an unknown one is
 * NotFoundException whatever the method). Anything else is 404 UnknownOperationException.
 *
 *   POST   /v2/domainnames                                   CreateDomainName (201)
 *   GET    /v2/domainnames                                   GetDomainNames
 *   GET    /v2/domainnames/{domainName}                      GetDomainName
 *   DELETE /v2/domainnames/{domainName}                      DeleteDomainName (204)
 *   POST   /v2/domainnames/{domainName}/apimappings          CreateApiMapping (201)
 *   GET    /v2/domainnames/{domainName}/apimappings          GetApiMappings
 *   GET    /v2/domainnames/{domainName}/apimappings/{id}     GetApiMapping
 *   DELETE /v2/domainnames/{domainName}/apimappings/{id}     DeleteApiMapping (204)
 */
import { answerRoute, plainPath, resolvedPath, type PathRoute } from '../path-routes';
import { apiMappingOf, createApiMapping, deleteApiMapping, getApiMappings } from './api-mappings';
import { createDomainName, deleteDomainName, domainNameOf, domainNameView, getDomainNames } from './domain-names';
import { ApiGatewayFault } from './errors';
import type { ApiGatewayState } from './state';

export interface ApiGatewayRequest {
  query: URLSearchParams;
  body(): Record<string, unknown>;
}

export interface ApiGatewayReply {
  status: number;
  body?: unknown;
}

type Answer = ApiGatewayReply | Promise<ApiGatewayReply>;
type Route = PathRoute<ApiGatewayState, ApiGatewayRequest, Answer>;

const ok = (body: unknown, status = 200): Answer => ({ status, body });
const NO_CONTENT: Answer = { status: 204 };
const domainOf = (state: ApiGatewayState, [name]: string[]) => domainNameOf(state, decodeURIComponent(name!));

const ROUTES: Route[] = [
  plainPath<ApiGatewayState, ApiGatewayRequest, Answer>(/^\/v2\/domainnames\/?$/, {
    POST: async (state, request) => ok(await createDomainName(state, request.body()), 201),
    GET: (state, request) => ok(getDomainNames(state, request.query)),
  }),
  resolvedPath(/^\/v2\/domainnames\/([^/]+)\/?$/, domainOf, {
    GET: (_state, _request, record) => ok(domainNameView(record)),
    DELETE: (state, _request, record) => {
      deleteDomainName(state, record);
      return NO_CONTENT;
    },
  }),
  resolvedPath(/^\/v2\/domainnames\/([^/]+)\/apimappings\/?$/, domainOf, {
    POST: (state, request, record) => ok(createApiMapping(state, record, request.body()), 201),
    GET: (_state, request, record) => ok(getApiMappings(record, request.query)),
  }),
  resolvedPath(
    /^\/v2\/domainnames\/([^/]+)\/apimappings\/([^/]+)$/,
    (state, params) => ({ record: domainOf(state, params), id: decodeURIComponent(params[1]!) }),
    {
      GET: (_state, _request, { record, id }) => ok(apiMappingOf(record, id)),
      DELETE: (state, _request, { record, id }) => {
        deleteApiMapping(state, record, id);
        return NO_CONTENT;
      },
    },
  ),
];

export async function answerRequest(
  state: ApiGatewayState,
  method: string,
  pathname: string,
  request: ApiGatewayRequest,
): Promise<ApiGatewayReply> {
  const reply = answerRoute(ROUTES, state, method, pathname, request);
  if (!reply) throw new ApiGatewayFault('UnknownOperationException', `The API Gateway emulator does not implement ${method} ${pathname}.`);
  return reply;
}
