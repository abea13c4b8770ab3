/**
 * What the local SES keeps of its suppression lists (suppression.json): the account's list and each
 * tenant's, written by ./store.ts and kept by ./suppression-list.ts. A module of its own: the store and
 * the list both use these shapes, and the store importing them from the list made an import cycle.
 */
export const SUPPRESSION_REASONS = ['BOUNCE', 'COMPLAINT'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** One listed address. */
export interface SuppressedEntry {
  address: string;
  reason: SuppressionReason;
  /** ISO time it was added or last changed. */
  lastUpdateTime: string;
  /** The message and feedback that put it there (absent for PutSuppressedDestination). */
  messageId?: string;
  feedbackId?: string;
}

/** What the store persists (suppression.json). */
export interface SuppressionFile {
  version: 1;
  /** PutAccountSuppressionAttributes; SES's default for accounts created after 25 Nov 2019. */
  accountReasons: SuppressionReason[];
  account: SuppressedEntry[];
  /** By tenant id (a tenant deleted and created again starts with an empty list). */
  tenants: Record<string, SuppressedEntry[]>;
}
