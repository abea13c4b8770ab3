/**
 * An email's category: transactional mail has no opt-out; a product or newsletter email is refused to an
 * address that opted out of its category (docs/suppressions.md, "Category opt-outs"), and the tenant
 * ramp counts the two streams apart (docs/tenants.md). A module of its own: the send request and the
 * templates both use it, and the templates importing it from the send request made an import cycle.
 */
export const CATEGORIES = ['transactional', 'product', 'newsletter'] as const;
export type Category = (typeof CATEGORIES)[number];
