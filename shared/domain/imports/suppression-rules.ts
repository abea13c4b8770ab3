/**
 * What an import does with one entry of a provider's suppression lists (spec, "Import mapping rules"
 * 1-3), and the counts of the report. Pure.
 *
 * - Rule 1: hard bounces and invalid addresses become `bounce` suppressions, spam complaints
 *   `complaint`, unsubscribes from all mail `unsubscribe`, manual entries `manual`; a scoped opt-out
 *   (a SendGrid group, a Postmark broadcast stream, a Mailgun tag) becomes a `product` category opt-out,
 *   not a suppression (the recipient still gets transactional mail).
 * - Rule 2: blocks (a refusal of the provider's servers or content, not of the address) and temporary
 *   (4xx) failures are skipped and counted in skipped_reasons (`blocked`, `temporary_failure`). An
 *   address that is not a valid email once trimmed and lower-cased is skipped as `invalid_address`
 *   (it could not be stored, and could never be sent to anyway).
 * - Rule 3, "a bounce or complaint wins over an unsubscribe", holds by ORDER, not by memory: the adapters
 *   walk the lists whose entries win (bounces, complaints) before the lists they win over (unsubscribes;
 *   see SuppressionListRef), and the store writes a suppression only when the address has none yet, an
 *   address already on our list being counted `already_suppressed`. So when an address is on a bounce
 *   list and an unsubscribe list, the bounce is written first and the unsubscribe finds it there. An
 *   import that runs over many requests (a cursor per list) cannot remember every address it has seen,
 *   and does not need to: the suppression list itself is the memory, which also makes a re-run skip
 *   what is there (rule 7).
 */
import { isEmailAddress, normaliseEmail } from '../mail/address';
import type { SuppressionReason } from '../suppressions/reasons';
import type { SuppressionReport } from './report';
import type { SourceSuppression, SourceSuppressionKind } from './source';

/** `unknown_kind`: an entry of a kind these rules do not know (an adapter bug); never guessed into a suppression. */
export const SKIPPED_REASONS = ['blocked', 'temporary_failure', 'invalid_address', 'unknown_kind'] as const;
export type SkippedReason = (typeof SKIPPED_REASONS)[number];

export type SuppressionDecision =
  | { action: 'suppress'; email: string; reason: SuppressionReason }
  | { action: 'opt_out'; email: string; category: 'product' }
  | { action: 'skip'; email: string | null; skipped_reason: SkippedReason };

/** The suppression reason of each kind that is imported as a suppression. */
const SUPPRESSED_KINDS: Partial<Record<SourceSuppressionKind, SuppressionReason>> = {
  hard_bounce: 'bounce',
  invalid: 'bounce',
  complaint: 'complaint',
  unsubscribe: 'unsubscribe',
  manual: 'manual',
};

/** The kinds that are never imported (rule 2), whatever the address. */
const SKIPPED_KINDS: Partial<Record<SourceSuppressionKind, SkippedReason>> = {
  block: 'blocked',
  soft_bounce: 'temporary_failure',
};

/**
 * What to do with one list entry. The address is trimmed and lower-cased; a block or a temporary
 * failure is skipped for that reason before the address is looked at; otherwise an address that is not
 * a valid email is skipped as `invalid_address` (email: what was given, normalised, or null when empty).
 */
export function classifySuppression(entry: SourceSuppression): SuppressionDecision {
  const email = normaliseEmail(entry.email ?? '');
  const skipped = SKIPPED_KINDS[entry.kind];
  if (skipped) return { action: 'skip', email: email === '' ? null : email, skipped_reason: skipped };
  if (!isEmailAddress(email)) return { action: 'skip', email: email === '' ? null : email, skipped_reason: 'invalid_address' };
  if (entry.kind === 'scoped_opt_out') return { action: 'opt_out', email, category: 'product' };
  const reason = SUPPRESSED_KINDS[entry.kind];
  if (!reason) return { action: 'skip', email, skipped_reason: 'unknown_kind' };
  return { action: 'suppress', email, reason };
}

/** How writing a decision ended (a skip is never written). */
export type SuppressionWriteOutcome = 'imported' | 'already_suppressed' | 'failed';

/**
 * The report after one more entry (a new object; `report` is not changed). `outcome` is what the store
 * answered for a suppress or opt_out decision (ignored for a skip); a preview passes 'imported' for what
 * it would import. found = every entry read; each ends in exactly one of imported, already_suppressed,
 * skipped or failed; bounce, complaint, unsubscribe, manual and product_opt_out split `imported`, and
 * skipped_reasons split `skipped`.
 */
export function countSuppression(
  report: SuppressionReport,
  decision: SuppressionDecision,
  outcome: SuppressionWriteOutcome = 'imported',
): SuppressionReport {
  const totals = { ...report.totals, found: report.totals.found + 1 };
  const skipped_reasons = { ...report.skipped_reasons };
  if (decision.action === 'skip') {
    totals.skipped += 1;
    skipped_reasons[decision.skipped_reason] = (skipped_reasons[decision.skipped_reason] ?? 0) + 1;
  } else {
    totals[outcome] += 1;
    if (outcome === 'imported') totals[decision.action === 'opt_out' ? 'product_opt_out' : decision.reason] += 1;
  }
  return { totals, skipped_reasons, estimated: report.estimated };
}
