/**
 * Who is asking, and the Principal / NotPrincipal element of resource-based policies.
 *
 * A Lambda function calls AWS as an assumed-role session, `arn:aws:sts::<acct>:assumed-role/<role>/<function>`.
 * A resource policy names it by the session ARN, the role ARN, `*`, or the whole account
 * (`arn:aws:iam::<acct>:root` or the bare 12-digit id). Naming the account does not grant the role by
 * itself: it delegates the grant to the account, whose identity-based policies must then allow the caller
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_principal.html#principal-accounts,
 * and for KMS https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html#key-policy-default-allow-root-enable-iam).
 * So a match is `direct` (the policy itself grants this caller), `account` (delegated), or `none`.
 *
 * Wildcards inside a principal are refused, as AWS refuses them ("You cannot use a wildcard to match part
 * of a principal name or ARN"). NotPrincipal excludes a caller only if every one of its identities is
 * listed, which is why AWS asks for the session ARN, the role ARN and the account together
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_notprincipal.html).
 */
import { UnsupportedPolicyError } from './errors';

export type CallerIdentity =
  | { kind: 'role-session'; accountId: string; partition: string; roleArn: string; sessionArn: string }
  | { kind: 'service'; service: string };

export type PrincipalMatch = 'direct' | 'account' | 'none';

export interface CompiledPrincipal {
  negated: boolean;
  anyone: boolean;
  aws: string[];
  services: string[];
}

const ACCOUNT_ID = /^\d{12}$/;
const KNOWN_TYPES = new Set(['AWS', 'Service', 'Federated', 'CanonicalUser']);

export function compilePrincipal(where: string, value: unknown, negated: boolean): CompiledPrincipal {
  const element = negated ? 'NotPrincipal' : 'Principal';
  if (value === '*') return { negated, anyone: true, aws: [], services: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UnsupportedPolicyError(`${where}: ${element} must be "*" or an object`);
  const compiled: CompiledPrincipal = { negated, anyone: false, aws: [], services: [] };
  for (const [type, raw] of Object.entries(value as Record<string, unknown>)) {
    if (!KNOWN_TYPES.has(type)) throw new UnsupportedPolicyError(`${where}: unknown ${element} type "${type}"`);
    const list: unknown[] = Array.isArray(raw) ? raw : [raw];
    if (list.length === 0 || !list.every((item): item is string => typeof item === 'string'))
      throw new UnsupportedPolicyError(`${where}: ${element}.${type} must be a string or a list of strings`);
    for (const item of list) {
      if (item !== '*' && item.includes('*'))
        throw new UnsupportedPolicyError(`${where}: wildcard inside ${element} "${item}" (AWS refuses partial wildcards in principals)`);
    }
    if (type === 'AWS') {
      for (const item of list) {
        if (item === '*') compiled.anyone = true;
        else compiled.aws.push(ACCOUNT_ID.test(item) ? `arn:aws:iam::${item}:root` : item);
      }
    } else if (type === 'Service') {
      compiled.services.push(...list.map((item) => item.toLowerCase()));
    }
    // Federated and CanonicalUser principals never name a Lambda role session or a service: no match.
  }
  return compiled;
}

const accountRoot = (caller: Extract<CallerIdentity, { kind: 'role-session' }>) => `arn:${caller.partition}:iam::${caller.accountId}:root`;

/** How a statement's Principal / NotPrincipal applies to the caller. */
export function principalMatch(principal: CompiledPrincipal, caller: CallerIdentity): PrincipalMatch {
  if (!principal.negated) {
    if (principal.anyone) return 'direct';
    if (caller.kind === 'service') return principal.services.includes(caller.service.toLowerCase()) ? 'direct' : 'none';
    if (principal.aws.includes(caller.sessionArn) || principal.aws.includes(caller.roleArn)) return 'direct';
    return principal.aws.includes(accountRoot(caller)) ? 'account' : 'none';
  }
  if (principal.anyone) return 'none';
  const identities = caller.kind === 'service' ? [caller.service.toLowerCase()] : [caller.sessionArn, caller.roleArn, accountRoot(caller)];
  const listed = [...principal.aws, ...principal.services];
  return identities.every((identity) => listed.includes(identity)) ? 'none' : 'direct';
}
