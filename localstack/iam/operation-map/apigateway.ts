/**
 * The operation map's API Gateway (v2) entries (../operations.ts assembles the table).
 *
 * API Gateway (v2): https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonapigatewaymanagementv2.html
 * and https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-control-access-to-api.html: the
 * action is the HTTP method of the management API (apigateway:POST, GET, DELETE), the resource its path
 * without `/v2`, `arn:<partition>:apigateway:<region>::/domainnames[/<name>[/apimappings[/<id>]]]` (no
 * account). CreateDomainName is POST on the collection `/domainnames` (no ACM permission of the caller:
 * the operation table of that page names none), with apigateway:Request/EndpointType, SecurityPolicy,
 * MtlsTrustStoreUri/Version and RoutingMode from the request or known absent, and, with mutual TLS,
 * apigateway:AddCertificateToDomain too; tags on it are refused (which further action AWS checks for them
 * is not documented). DeleteDomainName's apigateway:Resource/* keys (the existing domain's settings) are
 * not supplied: a policy that reads them throws.
 */
import { UnsupportedRequestError } from '../errors';
import { apiGatewayArn, required, type Input } from '../operation-arns';
import { optionalKeys, type Mapper } from './mapper';

const domainPath = (input: Input, action: string): string => `/domainnames/${required(input, 'DomainName', action)}`;

function apiGateway(method: 'GET' | 'POST' | 'DELETE', path: (input: Input, action: string) => string): Mapper {
  return (input, env) => {
    const action = `apigateway:${method}`;
    return [
      {
        action,
        resource: apiGatewayArn(env, path(input, action)),
        context: {},
        ...(method === 'GET' ? {} : { absentKeys: ['aws:TagKeys', 'aws:RequestTag/*'] }),
      },
    ];
  };
}

const createDomainName: Mapper = (input, env) => {
  if (input.Tags !== undefined && Object.keys(input.Tags as object).length > 0)
    throw new UnsupportedRequestError(
      'apigateway CreateDomainName with Tags is not mapped: which further action AWS authorizes for them is not documented',
    );
  const configurations = (input.DomainNameConfigurations ?? []) as Input[];
  const listed = (member: string): string[] =>
    configurations.map((configuration) => configuration[member]).filter((value): value is string => typeof value === 'string');
  const mtls = (input.MutualTlsAuthentication ?? {}) as Input;
  const context: Record<string, string | string[]> = {};
  const absentKeys = ['aws:TagKeys', 'aws:RequestTag/*'];
  for (const [key, values] of Object.entries({
    'apigateway:Request/EndpointType': listed('EndpointType'),
    'apigateway:Request/SecurityPolicy': listed('SecurityPolicy'),
  })) {
    if (values.length > 0) context[key] = values;
    else absentKeys.push(key);
  }
  const optional = optionalKeys(
    { ...input, TruststoreUri: mtls.TruststoreUri, TruststoreVersion: mtls.TruststoreVersion },
    {
      'apigateway:Request/MtlsTrustStoreUri': 'TruststoreUri',
      'apigateway:Request/MtlsTrustStoreVersion': 'TruststoreVersion',
      'apigateway:Request/RoutingMode': 'RoutingMode',
    },
  );
  const request = {
    resource: apiGatewayArn(env, '/domainnames'),
    context: { ...context, ...optional.context },
    absentKeys: [...absentKeys, ...(optional.absentKeys ?? [])],
  };
  return [
    { action: 'apigateway:POST', ...request },
    // "Grants permission to add certificates for mutual TLS authentication to a domain name" (the reference).
    ...(typeof mtls.TruststoreUri === 'string' ? [{ action: 'apigateway:AddCertificateToDomain', ...request }] : []),
  ];
};

export const APIGATEWAY_OPERATIONS: Readonly<Record<string, Mapper>> = {
  'ApiGatewayV2.CreateDomainName': createDomainName,
  'ApiGatewayV2.GetDomainName': apiGateway('GET', domainPath),
  'ApiGatewayV2.GetDomainNames': apiGateway('GET', () => '/domainnames'),
  'ApiGatewayV2.DeleteDomainName': apiGateway('DELETE', domainPath),
  'ApiGatewayV2.CreateApiMapping': apiGateway('POST', (input, action) => `${domainPath(input, action)}/apimappings`),
  'ApiGatewayV2.GetApiMappings': apiGateway('GET', (input, action) => `${domainPath(input, action)}/apimappings`),
  'ApiGatewayV2.DeleteApiMapping': apiGateway(
    'DELETE',
    (input, action) => `${domainPath(input, action)}/apimappings/${required(input, 'ApiMappingId', action)}`,
  ),
};
