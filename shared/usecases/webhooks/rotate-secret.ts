/**
 * Rotating an endpoint's signing secret (docs/webhooks.md, "Rotating the secret";
 * shared/domain/webhooks/secret-rotation.ts): a new secret, shown once, and the previous one signing beside it
 * for the overlap the caller chose (default a day, at most 7 days, 0: at once); the previous one can also be
 * stopped at any time. A rotation is conditional on the secret the caller read: two at once answer one
 * rotation and one 409 (retry), so no secret is ever dropped without its overlap.
 */
import { ConflictError, NotFoundError } from '../../domain/errors';
import { webhookSecretContext, type WebhookEndpoint } from '../../domain/webhooks/endpoint';
import { previousSecretExpiry, type RotateWebhookSecretInput } from '../../domain/webhooks/secret-rotation';
import { generateWebhookSecret } from '../../domain/webhooks/signing';
import type { Principal } from '../access/principal';
import { accountKeyOnly, owned, type WebhookDeps } from './webhooks';

export type RotateSecretDeps = Pick<WebhookDeps, 'webhooks' | 'secretBox' | 'clock'>;

/** A new signing secret (answered once); the previous one signs too until the overlap ends. */
export async function rotateWebhookSecret(
  deps: RotateSecretDeps,
  principal: Principal,
  webhookId: string,
  input: RotateWebhookSecretInput,
): Promise<{ webhook: WebhookEndpoint; secret: string }> {
  accountKeyOnly(principal);
  const stored = await owned(deps, principal, webhookId);
  const now = deps.clock.now();
  const secret = generateWebhookSecret();
  const sealed = await deps.secretBox.seal(secret, webhookSecretContext(webhookId));
  const outcome = await deps.webhooks.rotateSecret(principal.account.id, webhookId, {
    current: stored.sealedSecret,
    sealed,
    previousExpiresAt: previousSecretExpiry(now, input.overlap_seconds),
    now: now.toISOString(),
  });
  if (outcome.kind === 'not_found') throw new NotFoundError('Webhook', webhookId);
  if (outcome.kind === 'conflict') {
    throw new ConflictError(
      'The secret was rotated by another request at the same moment; nothing changed here. Read the webhook and retry.',
    );
  }
  return { webhook: outcome.endpoint, secret };
}

/** The previous secret stops signing now (a leaked one, or every receiver switched). */
export async function expirePreviousWebhookSecret(
  deps: Pick<WebhookDeps, 'webhooks' | 'clock'>,
  principal: Principal,
  webhookId: string,
): Promise<WebhookEndpoint> {
  accountKeyOnly(principal);
  await owned(deps, principal, webhookId);
  const endpoint = await deps.webhooks.expirePreviousSecret(principal.account.id, webhookId, deps.clock.now().toISOString());
  if (!endpoint) throw new NotFoundError('Webhook', webhookId);
  return endpoint;
}
