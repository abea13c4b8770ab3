/**
 * What a function's code builds, by capability: the modules of shared/services/ its handler composes
 * (shared/services/index.ts lists them). Each definition declares its list beside its grants, so the
 * function's data footprint reads next to what it may touch; test/infra/function-imports.test.ts holds the
 * list to the function's import closure and to its grants (a module that reaches a resource needs its
 * grant; a grant no module reaches is one too many).
 */
export type Capability =
  | 'platform'
  | 'access'
  | 'tenants'
  | 'domains'
  | 'templates'
  | 'emails'
  | 'usage'
  | 'sending'
  | 'delivery'
  | 'suppressions'
  | 'webhooks'
  | 'automations'
  | 'inbound'
  | 'team'
  | 'privacy'
  | 'recovery'
  | 'deliverability'
  | 'mail-domains'
  | 'address-validation'
  | 'imports'
  | 'import-providers'
  | 'mta-sts-hosting'
  | 'mta-sts-provisioning'
  | 'link-domains'
  | 'messaging'
  | 'blobs'
  | 'schedules'
  | 'ses'
  | 'ses-pace'
  | 'tenant-cleanup'
  | 'secrets'
  | 'dns-apply'
  | 'oidc';

/** What shared/services/sending.ts's buildSendingStack composes: every send door's (the API, the compat doors, the dashboard, automation steps, the SMTP relay). */
export const SENDING_STACK: Capability[] = ['platform', 'access', 'tenants', 'domains', 'templates', 'emails', 'usage', 'sending'];
