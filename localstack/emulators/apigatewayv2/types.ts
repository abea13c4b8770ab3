/**
 * What the API Gateway V2 emulator keeps: custom domain names with their one configuration, and their API
 * mappings. Field names are the API's JSON members (lower camel case, as the API Gateway V2 API
 * Reference writes them: https://docs.aws.amazon.com/apigatewayv2/latest/api-reference/domainnames.html),
 * so a view is a copy.
 */
export interface DomainNameConfiguration {
  apiGatewayDomainName: string;
  certificateArn: string;
  domainNameStatus: 'AVAILABLE';
  endpointType: 'REGIONAL';
  hostedZoneId: string;
  securityPolicy: 'TLS_1_0' | 'TLS_1_2';
}

export interface ApiMapping {
  apiId: string;
  apiMappingId: string;
  apiMappingKey: string;
  stage: string;
}

export interface DomainNameRecord {
  domainName: string;
  domainNameArn: string;
  apiMappingSelectionExpression: '$request.basepath';
  domainNameConfigurations: [DomainNameConfiguration];
  tags: Record<string, string>;
  mappings: ApiMapping[];
}

/** What a request on a custom domain name reaches: the API and stage of its (empty-key) mapping, and the certificate it is served with. */
export interface DomainNameTarget {
  domainName: string;
  apiId: string;
  stage: string;
  certificateArn: string;
}
