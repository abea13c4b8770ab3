/**
 * The operation map's Route 53 entries (../operations.ts assembles the table).
 *
 * Route 53: https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/r53-api-permissions-ref.html and
 * https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/specifying-rrset-conditions.html.
 */
import { required, route53Id, type Input } from '../operation-arns';
import type { Mapper, MappedRequest } from './mapper';

const hostedZone =
  (action: string): Mapper =>
  (input, env) => [
    {
      action: `route53:${action}`,
      resource: `arn:${env.partition}:route53:::hostedzone/${route53Id(required(input, 'HostedZoneId', `route53:${action}`))}`,
      context: {},
    },
  ];

const changeRecordSets: Mapper = (input, env) => {
  const [request] = hostedZone('ChangeResourceRecordSets')(input, env) as [MappedRequest];
  const changes = ((input.ChangeBatch as Input | undefined)?.Changes ?? []) as {
    Action: string;
    ResourceRecordSet: { Name: string; Type: string };
  }[];
  // "Normalized": lower case, no trailing dot (specifying-rrset-conditions.html).
  const names = changes.map((change) => change.ResourceRecordSet.Name.toLowerCase().replace(/\.$/, ''));
  return [
    {
      ...request,
      context: {
        'route53:ChangeResourceRecordSetsNormalizedRecordNames': names,
        'route53:ChangeResourceRecordSetsRecordTypes': changes.map((change) => change.ResourceRecordSet.Type),
        'route53:ChangeResourceRecordSetsActions': changes.map((change) => change.Action),
      },
    },
  ];
};

export const ROUTE53_OPERATIONS: Readonly<Record<string, Mapper>> = {
  'Route53.ListHostedZonesByName': () => [{ action: 'route53:ListHostedZonesByName', resource: '*', context: {} }],
  'Route53.ListResourceRecordSets': hostedZone('ListResourceRecordSets'),
  'Route53.ChangeResourceRecordSets': changeRecordSets,
  'Route53.GetChange': (input, env) => [
    {
      action: 'route53:GetChange',
      resource: `arn:${env.partition}:route53:::change/${route53Id(required(input, 'Id', 'route53:GetChange'))}`,
      context: {},
    },
  ],
};
