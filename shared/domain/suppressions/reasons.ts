/**
 * Why an address is suppressed, and the categories a recipient can opt out of without being suppressed
 * altogether.
 *
 * Only `manual` can be set through the API. `bounce`, `complaint` and `unsubscribe` are recorded by the
 * service itself (SES events, unsubscribe links) through the internal use cases, so a list entry's
 * reason always tells the truth about where it came from.
 */
export const SUPPRESSION_REASONS = ['bounce', 'complaint', 'unsubscribe', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** Reasons a client may give in `POST /suppressions`. */
export const API_SUPPRESSION_REASONS = ['manual'] as const satisfies readonly SuppressionReason[];
export type ApiSuppressionReason = (typeof API_SUPPRESSION_REASONS)[number];

/**
 * Categories of mail a recipient can opt out of (an unsubscribe from one newsletter should not stop
 * their password resets). Stored apart from suppressions: see shared/adapters/store/category-opt-outs.ts.
 */
export const OPT_OUT_CATEGORIES = ['product', 'newsletter'] as const;
export type OptOutCategory = (typeof OPT_OUT_CATEGORIES)[number];

/** Addresses one `POST /suppressions` may carry. */
export const MAX_SUPPRESSIONS_PER_REQUEST = 1000;
