/**
 * The routing table of the SES emulator: SESv2's REST-JSON API (methods and paths as in
 * @aws-sdk/client-sesv2; each operation a module of ./operations/), the local routes (/_local/...), and
 * the SES v1 Query API's POST /, answered with its XML error. A path is matched on its decoded segments
 * (empty ones dropped), `{Name}` standing for one segment handed to the operation in order. Anything
 * else is 404 UnknownOperationException (./server.ts).
 */
import type { LocalReply } from './operations/local-reply';
import type { SesRequest } from './request';
import type { SesState } from './state';
import type { OperationResult } from './types';
import * as op from './operations';

type Answer<Reply> = (state: SesState, request: SesRequest) => Reply | Promise<Reply>;

/** An SES operation (a JSON answer with a request id, changes on disk first) or a local route (its own answer). */
export type SesRoute = { method: string; path: string; joined?: boolean } & (
  | { operation: Answer<OperationResult> }
  | { local: Answer<LocalReply> }
);

const api = (method: string, path: string, operation: Answer<OperationResult>): SesRoute => ({ method, path, operation });
/** A tenant operation: all POST; the path after /v2/email compared joined, so an encoded `/` counts as one (as it always has). */
const tenantApi = (path: string, operation: Answer<OperationResult>): SesRoute => ({ method: 'POST', path, operation, joined: true });
const local = (method: string, path: string, answer: Answer<LocalReply>): SesRoute => ({ method, path, local: answer });

const ROUTES: readonly SesRoute[] = [
  api('POST', 'v2/email/outbound-emails', op.sendEmail),
  api('GET', 'v2/email/account', op.getAccount),
  api('PUT', 'v2/email/account/sending', op.putAccountSendingAttributes),
  api('PUT', 'v2/email/account/suppression', op.putAccountSuppressionAttributes),
  api('POST', 'v2/email/configuration-sets', op.createConfigurationSet),
  api('GET', 'v2/email/configuration-sets', op.listConfigurationSetsByQuery),
  api('POST', 'v2/email/list-configuration-sets', op.listConfigurationSetsByBody),
  api('GET', 'v2/email/configuration-sets/{ConfigurationSetName}', op.getConfigurationSet),
  api('DELETE', 'v2/email/configuration-sets/{ConfigurationSetName}', op.deleteConfigurationSet),
  api('POST', 'v2/email/configuration-sets/{ConfigurationSetName}/event-destinations', op.createConfigurationSetEventDestination),
  api('GET', 'v2/email/configuration-sets/{ConfigurationSetName}/event-destinations', op.getConfigurationSetEventDestinations),
  api('PUT', 'v2/email/configuration-sets/{ConfigurationSetName}/event-destinations/{Name}', op.updateConfigurationSetEventDestination),
  api('DELETE', 'v2/email/configuration-sets/{ConfigurationSetName}/event-destinations/{Name}', op.deleteConfigurationSetEventDestination),
  api('PUT', 'v2/email/configuration-sets/{ConfigurationSetName}/suppression-options', op.putConfigurationSetSuppressionOptions),
  api('POST', 'v2/email/identities', op.createEmailIdentity),
  api('GET', 'v2/email/identities', op.listEmailIdentitiesByQuery),
  api('POST', 'v2/email/list-identities', op.listEmailIdentitiesByBody),
  api('GET', 'v2/email/identities/{EmailIdentity}', op.getEmailIdentity),
  api('DELETE', 'v2/email/identities/{EmailIdentity}', op.deleteEmailIdentity),
  api('PUT', 'v2/email/identities/{EmailIdentity}/dkim/signing', op.putEmailIdentityDkimSigningAttributes),
  api('PUT', 'v2/email/identities/{EmailIdentity}/mail-from', op.putEmailIdentityMailFromAttributes),
  api('PUT', 'v2/email/identities/{EmailIdentity}/feedback', op.putEmailIdentityFeedbackAttributes),
  api('PUT', 'v2/email/suppression/addresses', op.putSuppressedDestination),
  api('GET', 'v2/email/suppression/addresses', op.listSuppressedDestinations),
  api('GET', 'v2/email/suppression/addresses/{EmailAddress}', op.getSuppressedDestination),
  api('DELETE', 'v2/email/suppression/addresses/{EmailAddress}', op.deleteSuppressedDestination),
  api('POST', 'v2/email/tenant/suppression', op.putTenantSuppressionAttributes),
  tenantApi('v2/email/tenants', op.createTenant),
  tenantApi('v2/email/tenants/get', op.getTenant),
  tenantApi('v2/email/tenants/list', op.listTenants),
  tenantApi('v2/email/tenants/delete', op.deleteTenant),
  tenantApi('v2/email/tenants/resources', op.createTenantResourceAssociation),
  tenantApi('v2/email/tenants/resources/delete', op.deleteTenantResourceAssociation),
  tenantApi('v2/email/tenants/resources/list', op.listTenantResources),
  tenantApi('v2/email/resources/tenants/list', op.listResourceTenants),
  api('GET', 'v2/email/reputation/entities/{Type}/{Reference}', op.getReputationEntity),
  api('PUT', 'v2/email/reputation/entities/{Type}/{Reference}/customer-managed-status', op.updateReputationEntityCustomerManagedStatus),
  local('GET', '_local/account', op.getLocalAccount),
  local('POST', '_local/account', op.setLocalAccount),
  local('POST', '_local/identities/{address}/confirm', op.confirmIdentity),
  local('GET', '_local/messages', op.localMessages),
  local('GET', '_local/identities', op.localIdentities),
  local('GET', '_local/tenants', op.localTenants),
  local('GET', '_local/mailbox', op.localMailbox),
  local('GET', '_local/messages/{id}/raw', op.localRawMessage),
  local('POST', '', op.queryApiAction),
];

/** The route for `method` and the path's decoded segments, with the segments its `{Name}`s stand for; undefined when none. */
export function findRoute(method: string, segments: readonly string[]): { route: SesRoute; params: string[] } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const params = matchPath(route, segments);
    if (params) return { route, params };
  }
  return undefined;
}

function matchPath(route: SesRoute, segments: readonly string[]): string[] | undefined {
  const pattern = route.path === '' ? [] : route.path.split('/');
  if (route.joined) {
    const [a, b, ...rest] = pattern;
    return segments[0] === a && segments[1] === b && segments.slice(2).join('/') === rest.join('/') ? [] : undefined;
  }
  if (pattern.length !== segments.length) return undefined;
  const params: string[] = [];
  for (const [i, part] of pattern.entries()) {
    const segment = segments[i]!;
    if (part.startsWith('{')) params.push(segment);
    else if (part !== segment) return undefined;
  }
  return params;
}
