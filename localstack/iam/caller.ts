/**
 * Who is calling AWS: the function whose handler is running. The API functions share one process here (and
 * the workers one thread), so the caller cannot be a global or an environment variable: it travels with
 * the async context (AsyncLocalStorage, https://nodejs.org/api/async_context.html), set by whoever invokes
 * a handler (`runAs(principal, () => handler(event))`).
 *
 * No principal means the local cloud itself (provisioning, pollers, test fixtures): not evaluated, as
 * AWS's own service calls are not a function's. Mind module-level caches in the product (a value one
 * function loaded and another reuses): on AWS each function is its own process and would make the call.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { NamedPolicy, PolicyDocument } from './policy';
import type { CallerIdentity } from './principals';

export interface Principal {
  /** The Lambda function (or ECS task) name: the role session name, as Lambda uses it. */
  functionName: string;
  /** The execution role, `arn:aws:iam::<acct>:role/<path/name>`. */
  roleArn: string;
  /** The role's policies, resolved (no intrinsic functions left): plain documents or named ones (named read better in the explain log). */
  policies: readonly (PolicyDocument | NamedPolicy)[];
}

const storage = new AsyncLocalStorage<Principal>();

/** Runs `fn` (and everything it awaits or schedules) as `principal`. */
export function runAs<T>(principal: Principal, fn: () => T): T {
  return storage.run(principal, fn);
}

export function currentPrincipal(): Principal | undefined {
  return storage.getStore();
}

const roleName = (roleArn: string): string => roleArn.slice(roleArn.lastIndexOf('/') + 1);

/**
 * The assumed-role session a function's calls come from: `arn:aws:sts::<acct>:assumed-role/<role name>/<function>`
 * (role path left out, as in STS session ARNs; https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-arns).
 */
export function callerIdentity(principal: Principal): Extract<CallerIdentity, { kind: 'role-session' }> {
  let identity = identities.get(principal);
  if (!identity) {
    identity = sessionOf(principal);
    identities.set(principal, identity);
  }
  return identity;
}

const identities = new WeakMap<Principal, Extract<CallerIdentity, { kind: 'role-session' }>>();

function sessionOf(principal: Principal): Extract<CallerIdentity, { kind: 'role-session' }> {
  const match = /^arn:([^:]+):iam::(\d{12}):role\/.+$/.exec(principal.roleArn);
  if (!match) throw new Error(`runAs: "${principal.roleArn}" is not an IAM role ARN`);
  const [, partition = 'aws', accountId = ''] = match;
  return {
    kind: 'role-session',
    partition,
    accountId,
    roleArn: principal.roleArn,
    sessionArn: `arn:${partition}:sts::${accountId}:assumed-role/${roleName(principal.roleArn)}/${principal.functionName}`,
  };
}

const named = new WeakMap<Principal, NamedPolicy[]>();

/** The principal's policies, each with a name (`<role name> policy <n>` for plain documents). */
export function namedPolicies(principal: Principal): NamedPolicy[] {
  let policies = named.get(principal);
  if (!policies) {
    policies = principal.policies.map((policy, i) =>
      'document' in policy ? policy : { name: `${roleName(principal.roleArn)} policy ${i + 1}`, document: policy },
    );
    named.set(principal, policies);
  }
  return policies;
}
