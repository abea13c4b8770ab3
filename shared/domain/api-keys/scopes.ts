/**
 * API key scopes. `full` grants everything. `emails:send` is sending access only (the spec lists the
 * write scopes it shows; sending-only keys are what Resend/Postmark users expect, so we add it).
 */
export const SCOPES = [
  'full',
  'emails:send',
  'domains:write',
  'webhooks:write',
  'templates:write',
  'suppressions:write',
  'account:read',
] as const;
export type Scope = (typeof SCOPES)[number];

/** True when a key holding `granted` may do something that needs any one of `anyOf`. */
export function hasScope(granted: readonly string[], anyOf: readonly Scope[]): boolean {
  return granted.includes('full') || anyOf.some((scope) => granted.includes(scope));
}
