/**
 * Rotating an endpoint's signing secret with an overlap (docs/webhooks.md, "Rotating the secret"): a new
 * secret is made, and for the overlap the caller chooses every delivery is signed with both, the new one
 * first (Service-Signature `v1=<new>,v1=<old>`; Standard Webhooks' space-separated `v1,<new> v1,<old>`:
 * ./signing.ts), so a receiver can switch to the new secret whenever it deploys, losing no event; then
 * only the new one signs. As Stripe's "roll secret" (an expiry up to 7 days) and the Standard Webhooks
 * specification's several signatures: a receiver's library accepts a delivery when any signature matches.
 */
import * as z from 'zod';

/** How long the previous secret signs beside the new one when the caller does not say: a day. */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 86_400;
/** The longest overlap: 7 days. */
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 86_400;

/** POST /webhooks/{id}/secret's body (optional: an empty body is the default overlap). */
export const rotateWebhookSecretSchema = z.strictObject({
  overlap_seconds: z
    .number({ message: 'overlap_seconds must be a whole number of seconds' })
    .int('overlap_seconds must be a whole number of seconds')
    .min(0, 'overlap_seconds is at least 0 (0: the previous secret stops signing at once)')
    .max(MAX_SECRET_OVERLAP_SECONDS, `overlap_seconds is at most ${MAX_SECRET_OVERLAP_SECONDS} (7 days)`)
    .optional()
    .describe(
      `how long the previous secret keeps signing beside the new one, in seconds: 0 to ${MAX_SECRET_OVERLAP_SECONDS} (7 days); default ${DEFAULT_SECRET_OVERLAP_SECONDS} (a day); 0 stops it at once`,
    ),
});
export type RotateWebhookSecretInput = z.output<typeof rotateWebhookSecretSchema>;

/** Until when the previous secret signs, for a rotation at `now`; null for an overlap of 0 (it stops at once). */
export function previousSecretExpiry(now: Date, overlapSeconds = DEFAULT_SECRET_OVERLAP_SECONDS): string | null {
  return overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000).toISOString() : null;
}

/** Whether the previous secret still signs a delivery attempted at `now`. */
export function previousSecretSigns(endpoint: { previous_secret_expires_at: string | null }, now: Date): boolean {
  return endpoint.previous_secret_expires_at !== null && Date.parse(endpoint.previous_secret_expires_at) > now.getTime();
}
