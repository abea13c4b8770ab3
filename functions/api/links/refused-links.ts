/** A link token that does not verify: logged (why, for the operator) and answered alike whatever the reason. */
import type { Context } from 'hono';
import { NotFoundError } from '#shared/domain/errors';
import type { LinkKind } from '#shared/domain/links/token';
import type { ApiEnv } from '#shared/doors/http/env';
import { logInfo } from '#shared/lib/log';
import type { ResolvedLink } from '#shared/usecases/links/link-signing';

/** A 404 of the error envelope: the same answer for every token that does not verify. */
export function notALink(kind: LinkKind): NotFoundError {
  return new NotFoundError(`The ${kind === 'unsubscribe' ? 'unsubscribe' : 'tracking'} link (not a valid link)`);
}

export function logRefused(c: Context<ApiEnv>, kind: LinkKind, resolved: ResolvedLink<LinkKind>): void {
  if (!resolved.ok) logInfo('link refused', { kind, failure: resolved.failure, request_id: c.get('requestId') });
}
