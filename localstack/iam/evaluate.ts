/**
 * The decision for one request (one action on one resource) in one account, following AWS's policy
 * evaluation logic for a request within a single account
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html, "Evaluating
 * policies within a single account"):
 *
 * 1. An explicit Deny in any applicable policy (identity-based or resource-based) wins.
 * 2. Otherwise the request is allowed if an identity-based policy allows it, or if the resource-based
 *    policy allows this caller directly (naming its role or session, or `*`). A resource policy that
 *    names only the account (`arn:aws:iam::<acct>:root`) delegates to the identity-based policies.
 * 3. KMS is the exception: the key policy is required. "Unless the key policy explicitly allows it, you
 *    cannot use IAM policies to allow access to a KMS key"; its default statement trusting the account
 *    root is what lets IAM policies grant access; an IAM Deny still applies without the key policy
 *    (https://docs.aws.amazon.com/kms/latest/developerguide/key-policies.html,
 *    https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html). So: allowed if the key
 *    policy allows the caller directly, or allows the account and an identity-based policy allows.
 * 4. Otherwise: implicitly denied.
 *
 * Not modelled (this project has none): SCPs, RCPs, permission boundaries, session policies, cross-account
 * requests. The evaluator is pure and synchronous; the caller validates the action and ARN against the
 * Service Authorization Reference first (./service-reference.ts).
 */
import { conditionHolds, type ContextValue, type RequestContext } from './conditions';
import { UnsupportedRequestError } from './errors';
import { compilePolicy, type CompiledStatement, type NamedPolicy } from './policy';
import { principalMatch, type CallerIdentity, type PrincipalMatch } from './principals';
import { actionMatches, arnMatches } from './wildcard';

export interface AuthorizationRequest {
  /** `service:Action` as in the Service Authorization Reference. */
  action: string;
  /** The resource ARN, or `*` for an action that supports no resource type. */
  resource: string;
  /** Condition keys this request carries (any case). */
  context: RequestContext;
  /**
   * Keys the request could carry but does not (an SES send without TenantName has no ses:TenantName):
   * known absent, so a condition on them follows AWS's absent-key rules. A condition on a key that is
   * neither in `context` nor here throws: the local cloud does not know what AWS would put there.
   * An entry ending in `*` is a prefix (`kms:EncryptionContext:*`: every context key the request lacks).
   */
  absentKeys?: readonly string[];
}

export interface PolicySet {
  identityPolicies: readonly NamedPolicy[];
  resourcePolicy?: NamedPolicy;
  /** `kms-key` when the resource policy is a KMS key policy (rule 3 above). */
  resourceKind?: 'kms-key' | 'standard';
}

export interface MatchedStatement {
  policy: string;
  sid?: string;
  index: number;
  effect: 'Allow' | 'Deny';
  /** Resource-policy statements: whether they named the caller itself or only its account. */
  principal?: PrincipalMatch;
}

export type DecisionEffect = 'Allow' | 'ExplicitDeny' | 'ImplicitDeny';

export interface Decision {
  effect: DecisionEffect;
  /** Which kind of policy denied (for AWS's message: "... in an identity-based policy" / "no resource-based policy allows"). */
  deniedBy?: 'identity' | 'resource';
  /** The statements that decided: the Deny(s) for an explicit deny, the Allow(s) for an allow. */
  matched: MatchedStatement[];
}

/** What contextValues() answers for a key the request neither carries nor declares absent. */
export const UNKNOWN_KEY = Symbol('unknown condition key');

/** A lookup of lower-cased condition keys: the value, undefined for a key known absent, UNKNOWN_KEY otherwise. */
export function contextValues(request: AuthorizationRequest): (key: string) => ContextValue | undefined | typeof UNKNOWN_KEY {
  const values = new Map<string, ContextValue>();
  for (const key in request.context) values.set(key.toLowerCase(), request.context[key] as ContextValue);
  const absent = (request.absentKeys ?? []).map((key) => key.toLowerCase());
  const absentExactly = new Set(absent.filter((key) => !key.endsWith('*')));
  const absentPrefixes = absent.filter((key) => key.endsWith('*')).map((key) => key.slice(0, -1));
  return (key) => {
    const value = values.get(key);
    if (value !== undefined) return value;
    if (absentExactly.has(key) || absentPrefixes.some((prefix) => key.startsWith(prefix))) return undefined;
    return UNKNOWN_KEY;
  };
}

/** Like contextValues(), but a key the local cloud does not supply throws: a policy that reads it cannot be decided. */
export function contextLookup(request: AuthorizationRequest): (key: string) => ContextValue | undefined {
  const lookup = contextValues(request);
  return (key) => {
    const value = lookup(key);
    if (value !== UNKNOWN_KEY) return value;
    throw new UnsupportedRequestError(
      `a policy condition reads "${key}", which the local cloud does not supply for ${request.action}: add it to the request's context (or absentKeys) in the service's module of localstack/iam/operation-map/ or in localstack/iam/authorize.ts`,
    );
  };
}

function statementApplies(
  statement: CompiledStatement,
  request: AuthorizationRequest,
  lookup: (key: string) => ContextValue | undefined,
): boolean {
  const actionListed = statement.actions.patterns.some((pattern) => actionMatches(pattern, request.action));
  if (actionListed === statement.actions.negated) return false;
  if (statement.resources) {
    const resourceListed = statement.resources.patterns.some((pattern) => arnMatches(pattern, request.resource));
    if (resourceListed === statement.resources.negated) return false;
  }
  return statement.conditions.every((condition) => conditionHolds(condition, lookup));
}

const matchedOf = (statement: CompiledStatement, principal?: PrincipalMatch): MatchedStatement => ({
  policy: statement.policy,
  ...(statement.sid !== undefined ? { sid: statement.sid } : {}),
  index: statement.index,
  effect: statement.effect,
  ...(principal ? { principal } : {}),
});

export function evaluate(request: AuthorizationRequest, caller: CallerIdentity, policies: PolicySet): Decision {
  const lookup = contextLookup(request);
  const identity: MatchedStatement[] = [];
  // A service principal has no identity-based policies; its access comes from the resource policy only.
  if (caller.kind === 'role-session') {
    for (const policy of policies.identityPolicies) {
      for (const statement of compilePolicy(policy, 'identity')) {
        if (statementApplies(statement, request, lookup)) identity.push(matchedOf(statement));
      }
    }
  }
  const resource: MatchedStatement[] = [];
  if (policies.resourcePolicy) {
    for (const statement of compilePolicy(policies.resourcePolicy, 'resource')) {
      const principal = statement.principal ? principalMatch(statement.principal, caller) : 'none';
      if (principal !== 'none' && statementApplies(statement, request, lookup)) resource.push(matchedOf(statement, principal));
    }
  }

  const identityDenies = identity.filter((s) => s.effect === 'Deny');
  const resourceDenies = resource.filter((s) => s.effect === 'Deny');
  if (identityDenies.length > 0) return { effect: 'ExplicitDeny', deniedBy: 'identity', matched: [...identityDenies, ...resourceDenies] };
  if (resourceDenies.length > 0) return { effect: 'ExplicitDeny', deniedBy: 'resource', matched: resourceDenies };

  const identityAllows = identity.filter((s) => s.effect === 'Allow');
  const directAllows = resource.filter((s) => s.effect === 'Allow' && s.principal === 'direct');
  const accountAllows = resource.filter((s) => s.effect === 'Allow' && s.principal === 'account');
  if (directAllows.length > 0) return { effect: 'Allow', matched: directAllows };
  if (policies.resourceKind === 'kms-key') {
    if (accountAllows.length === 0) return { effect: 'ImplicitDeny', deniedBy: 'resource', matched: [] };
    if (identityAllows.length > 0) return { effect: 'Allow', matched: [...accountAllows, ...identityAllows] };
    return { effect: 'ImplicitDeny', deniedBy: 'identity', matched: [] };
  }
  if (identityAllows.length > 0) return { effect: 'Allow', matched: identityAllows };
  return { effect: 'ImplicitDeny', deniedBy: 'identity', matched: [] };
}
