/**
 * The operation map's SES v2 entries (../operations.ts assembles the table).
 *
 * SES v2: https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsimpleemailservicev2.html
 * and https://docs.aws.amazon.com/ses/latest/dg/control-user-access.html. SendEmail is authorized on the
 * sending identity and on the configuration set (and template); the tenant is not a resource type of
 * SendEmail, only its condition key ses:TenantName. Which identity AWS checks for an address in a
 * verified domain is not documented: we check both the address identity and its domain identity
 * (our choice: at least as strict as AWS).
 */
import { parseMailbox, required, sesConfigurationSetArn, sesIdentityArn, sesTemplateArn, sesTenantArn } from '../operation-arns';
import type { Mapper, MappedRequest } from './mapper';

const SES_V2 = { 'ses:ApiVersion': '2' };

function sesIdentity(action: string): Mapper {
  return (input, env) => [
    { action: `ses:${action}`, resource: sesIdentityArn(env, required(input, 'EmailIdentity', `ses:${action}`)), context: SES_V2 },
  ];
}

function sesTenant(action: string): Mapper {
  return (input, env) => [
    { action: `ses:${action}`, resource: sesTenantArn(env, required(input, 'TenantName', `ses:${action}`)), context: SES_V2 },
  ];
}

/** Create/DeleteTenantResourceAssociation: the same action on the tenant and on the associated resource. */
function sesTenantAssociation(action: string): Mapper {
  return (input, env) => [
    ...sesTenant(action)(input, env),
    { action: `ses:${action}`, resource: required(input, 'ResourceArn', `ses:${action}`), context: SES_V2 },
  ];
}

const sesWildcard =
  (action: string): Mapper =>
  () => [{ action: `ses:${action}`, resource: '*', context: SES_V2 }];

const sesSendEmail: Mapper = (input, env) => {
  const from = parseMailbox(required(input, 'FromEmailAddress', 'ses:SendEmail'));
  const domain = from.address.slice(from.address.lastIndexOf('@') + 1);
  const destination = input.Destination as { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] } | undefined;
  const context: Record<string, string | string[]> = { ...SES_V2, 'ses:FromAddress': from.address };
  const absentKeys: string[] = [];
  const optional = {
    'ses:FromDisplayName': from.displayName,
    'ses:TenantName': input.TenantName,
    'ses:FeedbackAddress': input.FeedbackForwardingEmailAddress,
    'ses:MultiRegionEndpointId': input.EndpointId,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (typeof value === 'string') context[key] = value;
    else absentKeys.push(key);
  }
  // Recipients: from Destination. A raw message without Destination takes them from its headers, which are
  // not parsed here: the key is then left unknown, so a policy reading it throws rather than guessing.
  if (destination)
    context['ses:Recipients'] = [
      ...(destination.ToAddresses ?? []),
      ...(destination.CcAddresses ?? []),
      ...(destination.BccAddresses ?? []),
    ].map((a) => parseMailbox(a).address);
  const request = (resource: string): MappedRequest => ({ action: 'ses:SendEmail', resource, context, absentKeys });
  const identities =
    typeof input.FromEmailAddressIdentityArn === 'string'
      ? [input.FromEmailAddressIdentityArn]
      : [...new Set([sesIdentityArn(env, from.address), sesIdentityArn(env, domain)])];
  const template = (input.Content as { Template?: { TemplateName?: string } } | undefined)?.Template?.TemplateName;
  return [
    ...identities.map(request),
    ...(typeof input.ConfigurationSetName === 'string' ? [request(sesConfigurationSetArn(env, input.ConfigurationSetName))] : []),
    ...(template ? [request(sesTemplateArn(env, template))] : []),
  ];
};

export const SES_OPERATIONS: Readonly<Record<string, Mapper>> = {
  'SESv2.SendEmail': sesSendEmail,
  'SESv2.GetAccount': sesWildcard('GetAccount'),
  'SESv2.CreateEmailIdentity': sesIdentity('CreateEmailIdentity'),
  'SESv2.GetEmailIdentity': sesIdentity('GetEmailIdentity'),
  'SESv2.DeleteEmailIdentity': sesIdentity('DeleteEmailIdentity'),
  'SESv2.PutEmailIdentityDkimSigningAttributes': sesIdentity('PutEmailIdentityDkimSigningAttributes'),
  'SESv2.PutEmailIdentityMailFromAttributes': sesIdentity('PutEmailIdentityMailFromAttributes'),
  'SESv2.PutEmailIdentityFeedbackAttributes': sesIdentity('PutEmailIdentityFeedbackAttributes'),
  'SESv2.CreateTenant': sesTenant('CreateTenant'),
  'SESv2.GetTenant': sesTenant('GetTenant'),
  'SESv2.DeleteTenant': sesTenant('DeleteTenant'),
  'SESv2.ListTenants': sesWildcard('ListTenants'),
  'SESv2.ListTenantResources': sesTenant('ListTenantResources'),
  'SESv2.CreateTenantResourceAssociation': sesTenantAssociation('CreateTenantResourceAssociation'),
  'SESv2.DeleteTenantResourceAssociation': sesTenantAssociation('DeleteTenantResourceAssociation'),
};
