/**
 * Who calls and what the frame of every door keeps: accounts, API keys and SMTP credentials (with the
 * process's key -> account cache authentication and the send path share), rate limits, idempotency
 * keys and the audit log.
 */
import { AccountRepository } from '../adapters/store/accounts';
import { ApiKeyRepository } from '../adapters/store/api-keys';
import { AuditLogRepository } from '../adapters/store/audit-log';
import { IdempotencyStore } from '../adapters/store/idempotency';
import { RateLimitRepository } from '../adapters/store/rate-limits';
import { SmtpAuthFailureRepository } from '../adapters/store/smtp-auth-failures';
import { SmtpCredentialRepository } from '../adapters/store/smtp-credentials';
import { KeyAccounts } from '../usecases/access/key-accounts';
import type { Platform } from './platform';

export function buildAccess({ table }: Pick<Platform, 'table'>) {
  return {
    accounts: new AccountRepository(table),
    apiKeys: new ApiKeyRepository(table),
    /** Which account each API key or SMTP credential belongs to (immutable): authentication's and the send-context loader's. */
    keyAccounts: new KeyAccounts(),
    smtpCredentials: new SmtpCredentialRepository(table),
    /** Failed SMTP relay logins, shared by every relay task (shared/doors/smtp/auth-throttle.ts). */
    smtpAuthFailures: new SmtpAuthFailureRepository(table),
    rateLimits: new RateLimitRepository(table),
    idempotency: new IdempotencyStore(table),
    /** The audit log (docs/audit-log.md): written by the API's and the dashboard's frames and by sign-in. */
    auditLog: new AuditLogRepository(table),
  };
}

export type AccessServices = ReturnType<typeof buildAccess>;
