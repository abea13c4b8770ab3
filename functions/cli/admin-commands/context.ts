/**
 * What every operator command (../admin.ts) runs with: its checked inputs, the deployment's platform (config,
 * clock, the table's handle) and its audit record. Each command module builds only the capabilities it uses
 * from the platform, so `npm run admin -- account create` loads the DynamoDB client and the access use
 * cases, not SES, S3, KMS, ACM and API Gateway's clients as well (docs/local-cloud/bundles.md).
 */
import type { parseArgs } from 'node:util';
import type { DEFAULT_HOSTING_QUOTAS } from '#shared/usecases/domains/mta-sts/quota-headroom';
import type { oidcSettingsFromValues } from '#shared/domain/dashboard/oidc';
import type { Platform } from '#shared/services/platform';

/** Bad arguments or a missing target: exit code 2. */
export class UsageError extends Error {}

/** The command line's options, declared once: ../admin.ts parses with them, `Values` is what they parse to. */
export const ADMIN_OPTIONS = {
  email: { type: 'string' },
  id: { type: 'string' },
  account: { type: 'string' },
  tenant: { type: 'string' },
  plan: { type: 'string' },
  'payment-method': { type: 'boolean' },
  'no-payment-method': { type: 'boolean' },
  tenants: { type: 'boolean' },
  'password-stdin': { type: 'boolean' },
  'no-tenants': { type: 'boolean' },
  issuer: { type: 'string' },
  'client-id': { type: 'string' },
  segments: { type: 'string' },
  'domain-name-quota': { type: 'string' },
  'certificate-quota': { type: 'string' },
  reason: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The options a command line gave (node:util parseArgs's values). */
export type Values = ReturnType<typeof parseArgs<{ options: typeof ADMIN_OPTIONS; allowPositionals: true }>>['values'];

/** What a command was given, checked before anything is read or written (stdin included, in this order). */
export interface Inputs {
  values: Values;
  oidc: ReturnType<typeof oidcSettingsFromValues> | null;
  clientSecret: string | undefined;
  password: string | undefined;
  segments: number;
  hostingQuotas: typeof DEFAULT_HOSTING_QUOTAS;
}

/** What a command runs with once its target is set: the platform, its inputs, and its audit record. */
export interface CommandContext extends Inputs {
  platform: Platform;
  /** The operator's change in the audit log (a failed write is logged, never the command's failure). */
  audited: <T>(accountId: string, ids: Record<string, string>, result: T) => Promise<T>;
}

export type Command = (context: CommandContext) => Promise<unknown>;
