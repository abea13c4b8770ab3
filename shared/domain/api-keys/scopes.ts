/**
 * API key scopes (docs/api.md, "Scopes"). `full` grants everything. `account:admin` is the account-level
 * operations (its settings, the audit log, exports, erasures); `mail:admin` everything else (keys, SMTP
 * credentials, tenants, automations, imports, domains, webhooks, templates, suppressions, sending,
 * reading). `emails:send` is sending access only (the spec lists the write scopes it shows; sending-only
 * keys are what Resend/Postmark users expect, so we add it).
 *
 * Coverage: `full` covers every scope; `mail:admin` every scope but `full` and `account:admin`; every
 * other scope only itself. Every check (hasScope) and every new key's scopes (./reach.ts) go by it.
 */
export const SCOPES = [
  'full',
  'mail:admin',
  'account:admin',
  'emails:send',
  'domains:write',
  'webhooks:write',
  'templates:write',
  'suppressions:write',
  'account:read',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes only `full` covers (besides itself): `mail:admin` does not reach them. */
const ABOVE_MAIL_ADMIN: readonly Scope[] = ['full', 'account:admin'];

/** True when holding `holder` alone grants `scope`. */
export function scopeCovers(holder: string, scope: Scope): boolean {
  if (holder === 'full' || holder === scope) return true;
  return holder === 'mail:admin' && !ABOVE_MAIL_ADMIN.includes(scope);
}

/** True when a key holding `granted` has `scope` (one of its scopes covers it). */
export function covers(granted: readonly string[], scope: Scope): boolean {
  return granted.some((holder) => scopeCovers(holder, scope));
}

/** True when a key holding `granted` may do something that needs any one of `anyOf`. */
export function hasScope(granted: readonly string[], anyOf: readonly Scope[]): boolean {
  return anyOf.some((scope) => covers(granted, scope));
}

/** The scopes any one of which passes a check needing one of `anyOf`, widest first (a 403's `required_scopes`, the reference). */
export function scopesCoveringAny(anyOf: readonly Scope[]): Scope[] {
  return SCOPES.filter((holder) => anyOf.some((scope) => scopeCovers(holder, scope)));
}

/** The scopes that pass a check needing every one of `allOf`: those covering all of them, then each of them. */
export function scopesCoveringAll(allOf: readonly Scope[]): Scope[] {
  const wide = SCOPES.filter((holder) => allOf.every((scope) => scopeCovers(holder, scope)));
  return [...new Set([...wide, ...allOf])];
}
