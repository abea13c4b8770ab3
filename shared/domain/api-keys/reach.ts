/**
 * A credential's reach, and the rule that nothing is made beyond its maker's (docs/api.md, "Creating
 * within your reach"): a key or SMTP credential is created only with scopes its creator's scopes cover
 * (./scopes.ts), and, when the creator may send only from some domains, only with a non-empty subset of
 * them (left out: the creator's own list, as a limited creator can never make an unlimited one). The tenant
 * rule is the use cases' (a key limited to a tenant creates neither: requireAccountKey). Automations
 * record their maker's domains by the same rule (withinDomains). Pure.
 */
import { type AppError, ForbiddenError } from '../errors';
import { covers, SCOPES, type Scope } from './scopes';

/** What a credential may do and send from: a key, an SMTP credential, a session, an automation's maker. */
export interface Reach {
  scopes: readonly string[];
  /** null: any domain of the account. */
  allowed_domains: readonly string[] | null;
}

/** What a new key or credential asks for (absent: the creator's own). */
export interface Requested {
  scopes?: readonly Scope[];
  allowed_domains?: readonly string[];
}

export interface Granted {
  scopes: Scope[];
  allowed_domains: string[] | null;
}

/** The scopes a creator holding `scopes` may give (the dashboard's form offers only these). */
export function grantableScopes(scopes: readonly string[]): Scope[] {
  return SCOPES.filter((scope) => covers(scopes, scope));
}

/** The creator's scopes as a new key's default: those it holds that are scopes of ours. */
const ownScopes = (scopes: readonly string[]): Scope[] => SCOPES.filter((scope) => scopes.includes(scope));

/** 403 domain_not_allowed naming the domains outside the creator's list. */
export function domainsOutsideReach(
  outside: readonly string[],
  allowed: readonly string[],
  what: string,
  field = 'allowed_domains',
): AppError {
  const are = outside.length === 1 ? 'is' : 'are';
  return new ForbiddenError(
    `${what} may only send from ${allowed.join(', ')}, and nothing it makes may reach further: ${outside.join(', ')} ${are} not among them.`,
    'domain_not_allowed',
    {
      details: { field, domains: [...outside], allowed_domains: [...allowed] },
      hint: 'Ask for a subset of those domains (or leave allowed_domains out to get exactly them), or use a key allowed for the others.',
    },
  );
}

/**
 * The domains a creator limited to `allowed` may give: `requested` when each is one of them (403
 * otherwise), `allowed` itself when nothing is asked; anything (or nothing) for an unlimited creator.
 */
export function withinDomains(allowed: readonly string[] | null, requested: readonly string[] | undefined, what: string): string[] | null {
  if (allowed === null) return requested ? [...requested] : null;
  if (requested === undefined) return [...allowed];
  const outside = requested.filter((domain) => !allowed.includes(domain));
  if (outside.length) throw domainsOutsideReach(outside, allowed, what);
  return [...requested];
}

/**
 * What a new key or credential gets from `creator`: the scopes asked for when the creator's cover each
 * (403 insufficient_scope naming the others), else the creator's; the domains by withinDomains.
 */
export function grantWithinReach(creator: Reach, requested: Requested): Granted {
  const scopes = requested.scopes ? [...requested.scopes] : ownScopes(creator.scopes);
  const beyond = scopes.filter((scope) => !covers(creator.scopes, scope));
  if (beyond.length) {
    throw new ForbiddenError(
      `A key or credential is made only within its maker's reach: your scopes (${creator.scopes.join(', ')}) do not cover ${beyond.join(', ')}.`,
      'insufficient_scope',
      {
        details: {
          field: 'scopes',
          refused_scopes: beyond,
          key_scopes: [...creator.scopes],
          grantable_scopes: grantableScopes(creator.scopes),
        },
        hint: 'Ask only for scopes your own key (or dashboard role) covers; a key with full can make any.',
      },
    );
  }
  return { scopes, allowed_domains: withinDomains(creator.allowed_domains, requested.allowed_domains, 'Your key') };
}

/**
 * True when `holder` reaches at least as far as `target`: every scope of the target covered, and its
 * domains within the holder's (an unlimited target only by an unlimited holder). A key or credential is
 * revoked only by such a holder (docs/api.md, "Creating within your reach"): a developer's `mail:admin`
 * key cannot revoke an owner's `full` key, nor a key limited to a.example one that sends from anywhere.
 */
export function reachCovers(holder: Reach, target: Reach): boolean {
  if (!target.scopes.every((scope) => covers(holder.scopes, scope as Scope))) return false;
  if (holder.allowed_domains === null) return true;
  if (target.allowed_domains === null) return false;
  return target.allowed_domains.every((domain) => holder.allowed_domains!.includes(domain));
}

/** 403 for revoking a key or credential that reaches further than the caller. */
export function revocationBeyondReach(what: 'API key' | 'SMTP credential', id: string, holder: Reach, target: Reach): AppError {
  return new ForbiddenError(
    `The ${what} ${id} reaches further than yours, and a ${what} is revoked only by one whose reach covers it.`,
    'insufficient_scope',
    {
      details: {
        key_scopes: [...holder.scopes],
        key_allowed_domains: holder.allowed_domains,
        target_scopes: [...target.scopes],
        target_allowed_domains: target.allowed_domains,
      },
      hint: 'Revoke it with a key (or dashboard role) whose scopes and sending domains cover it; a key with full and no domain limit can revoke any.',
    },
  );
}
