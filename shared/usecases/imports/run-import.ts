/**
 * POST /migrations (spec, Imports; docs/imports.md): starts an import, or continues one from its cursor,
 * works it for one time budget and answers the whole report so far.
 *
 * - Scopes: the write scope of every selected resource, or full. Keys limited to a tenant: 403.
 * - Limits (RATE_LIMITS): 10 new imports (dry runs included) and 300 continuations per account per hour.
 * - A new import first makes the provider's cheapest authenticated call: a rejected key is a 400
 *   (details.reason provider_auth_failed), an unreachable provider a 502 (provider_unavailable), a rate
 *   limit a 429 with Retry-After (provider_rate_limited); nothing is kept then. Later in the import,
 *   a rate limit ends the request with has_more and retry_after_seconds.
 * - A continuation must repeat the first body (provider, region, resources, dry_run) with `cursor`. The
 *   cursor is claimed with a conditional write: a stale cursor (a request already went past it) is
 *   answered with the report as it stands (and the current cursor); a cursor another request is
 *   working is a 409 with Retry-After.
 * - The provider key is used for this request only: never stored, logged or returned.
 */
import { hasScope, scopesCoveringAll, type Scope } from '../../domain/api-keys/scopes';
import {
  AppError,
  ConflictError,
  InsufficientScopeError,
  NotFoundError,
  RateLimitedError,
  UpstreamError,
  ValidationError,
} from '../../domain/errors';
import { newImportHead, parseCursor, type ImportHead } from '../../domain/imports/import';
import { mergeParts } from '../../domain/imports/report';
import type { StartImportInput } from '../../domain/imports/schemas';
import { PROVIDER_LABELS, type ProviderName } from '../../domain/imports/source';
import { ProviderError } from '../../ports/provider-source';
import { RATE_LIMITS, secondsUntilReset, type RateLimitName } from '../../domain/rate-limits';
import type { Principal } from '../access/principal';
import { requireAccountKey } from '../access/tenant-scope';
import type { ImportDeps } from './deps';
import { toPublicImport, type PublicImport } from '../../domain/imports/public-import';
import { claimLost, importStatus, workImport, type WorkOutcome } from './work-import';

function requireImportScopes(principal: Principal, input: StartImportInput): void {
  const granted = principal.credential.scopes;
  const needed = input.resources.map((resource) => `${resource}:write` as Scope);
  const missing = needed.filter((scope) => !hasScope(granted, [scope]));
  if (missing.length > 0) throw new InsufficientScopeError(scopesCoveringAll(needed), granted);
}

async function countRequest(deps: ImportDeps, principal: Principal, name: RateLimitName): Promise<void> {
  const rule = RATE_LIMITS[name];
  const nowMs = deps.clock.now().getTime();
  const decision = await deps.rateLimits.hit(principal.account.id, name, rule, nowMs);
  if (!decision.allowed) throw new RateLimitedError(rule.limit, rule.windowSeconds, secondsUntilReset(rule, nowMs));
}

/** A provider failure as the spec's error (auth 400, unavailable 502, rate limit 429). */
export function providerErrorToAppError(error: ProviderError, provider: ProviderName): AppError {
  const name = PROVIDER_LABELS[provider];
  const failure = error.failure;
  if (failure.kind === 'auth') {
    return new ValidationError(`${name} rejected the API key: check it (and its permissions) and try again.`, {
      details: { reason: 'provider_auth_failed', provider },
    });
  }
  if (failure.kind === 'rate_limited') {
    return new AppError(429, 'rate_limited', `${name} is rate-limiting the import; retry after ${failure.retryAfterSeconds} s.`, {
      details: { reason: 'provider_rate_limited', provider, retry_after: failure.retryAfterSeconds },
      headers: { 'Retry-After': String(failure.retryAfterSeconds) },
    });
  }
  return new UpstreamError(`${name} could not be reached (${failure.message}); try again in a moment.`, {
    details: { reason: 'provider_unavailable', provider },
  });
}

/** A new import: counted, the provider's key checked, its head created (leased until `leaseUntilMs`). */
async function startImport(
  deps: ImportDeps,
  principal: Principal,
  input: StartImportInput,
  source: ReturnType<ImportDeps['providerSource']>,
  started: number,
  leaseUntilMs: number,
): Promise<ImportHead> {
  await countRequest(deps, principal, 'newImports');
  try {
    await source.checkAccess();
  } catch (error) {
    if (error instanceof ProviderError) throw providerErrorToAppError(error, input.provider);
    throw error;
  }
  const head = newImportHead(
    {
      account_id: principal.account.id,
      provider: input.provider,
      region: input.region,
      resources: input.resources,
      dry_run: input.dry_run,
    },
    started,
  );
  await deps.imports.create(head, leaseUntilMs);
  return head;
}

/**
 * A continuation: its cursor's import claimed for this request (a head to work), or answered as it stands
 * when its lease is stale (`answer`); refused when the body differs from the first request's or another
 * request holds it.
 */
async function continueImport(
  deps: ImportDeps,
  principal: Principal,
  input: StartImportInput,
  started: number,
  leaseUntilMs: number,
): Promise<{ head: ImportHead } | { answer: PublicImport }> {
  const cursor = parseCursor(input.cursor!);
  if (!cursor)
    throw new ValidationError('cursor is not a next_cursor of this API.', {
      details: { fields: [{ field: 'cursor', message: 'not a next_cursor of this API' }] },
    });
  await countRequest(deps, principal, 'importContinuations');
  const claim = await deps.imports.claim(principal.account.id, cursor.id, cursor.requests, started, leaseUntilMs);
  if (claim.kind === 'not_found') throw new NotFoundError('Import', cursor.id);
  const claimed = claim.head;
  const differs: string[] = (['provider', 'region', 'dry_run'] as const).filter((field) => claimed[field] !== input[field]);
  if (claimed.resources.join() !== input.resources.join()) differs.push('resources');
  if (differs.length > 0) {
    if (claim.kind === 'claimed') await deps.imports.release(claimed, leaseUntilMs);
    throw new ValidationError(
      `This cursor continues an import with other ${differs.join(', ')}: repeat the body of the first request, with cursor.`,
      { details: { fields: differs.map((field) => ({ field, message: 'differs from the import this cursor continues' })) } },
    );
  }
  if (claim.kind === 'busy') {
    throw new ConflictError('Another request is working this import now; retry with the same cursor in a moment.', 'conflict', {
      headers: { 'Retry-After': '5' },
      details: { migration_id: claimed.id },
    });
  }
  if (claim.kind === 'stale')
    return {
      answer: toPublicImport(
        claimed,
        mergeParts(await deps.imports.parts(principal.account.id, claimed.id)),
        deps.importSettings.apiBaseUrl,
      ),
    };
  return { head: claimed };
}

export async function runImport(deps: ImportDeps, principal: Principal, input: StartImportInput): Promise<PublicImport> {
  requireAccountKey(principal, 'import from another provider');
  requireImportScopes(principal, input);
  const settings = deps.importSettings;
  const started = deps.clock.now().getTime();
  const leaseUntilMs = started + settings.leaseMs;
  const source = deps.providerSource({
    provider: input.provider,
    apiKey: input.api_key,
    accountApiKey: input.account_api_key,
    region: input.region,
  });
  const claimed =
    input.cursor === undefined
      ? { head: await startImport(deps, principal, input, source, started, leaseUntilMs) }
      : await continueImport(deps, principal, input, started, leaseUntilMs);
  if ('answer' in claimed) return claimed.answer;
  const { head } = claimed;

  const secrets = new Map<string, string>();
  const ctx = { deps, principal, head, source, pages: new Map(), secrets, deadlineMs: started + settings.budgetMs };
  let outcome: WorkOutcome;
  try {
    outcome = await workImport(ctx, leaseUntilMs);
  } catch (error) {
    if (error instanceof ProviderError) {
      await deps.imports.release(head, leaseUntilMs);
      throw providerErrorToAppError(error, input.provider);
    }
    throw error;
  }
  // A continuation the provider refused outright is answered with the error, its cursor still good. A
  // new import (the provider answered its first call) is kept and answered with its cursor instead.
  if (outcome.failedBeforeWork && input.cursor !== undefined) {
    await deps.imports.release(head, leaseUntilMs);
    throw providerErrorToAppError(outcome.failedBeforeWork, input.provider);
  }
  const report = mergeParts(await deps.imports.parts(principal.account.id, head.id));
  const { status, hasMore } = importStatus(head, report);
  const finished = await deps.imports.finish(
    head,
    leaseUntilMs,
    { status, has_more: hasMore, retry_after_seconds: hasMore ? outcome.retryAfterSeconds : null },
    deps.clock.now().toISOString(),
  );
  if (!finished) throw claimLost();
  return toPublicImport(head, report, settings.apiBaseUrl, secrets);
}
