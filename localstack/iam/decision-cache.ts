/**
 * Decisions cached per (principal, action, resource, resource policy, the context values the policies
 * read). Only the condition keys some statement of the principal's policies (or the resource policy)
 * reads are part of the key: a per-request value such as ses:Recipients or an encryption context that
 * no policy reads does not make every call a miss. Policies are immutable for a principal object (a new
 * template deploys new principals), so entries never go stale; errors are never cached.
 */
import { contextValues, UNKNOWN_KEY, type AuthorizationRequest, type Decision } from './evaluate';
import { compilePolicy, type NamedPolicy } from './policy';

const ids = new WeakMap<object, number>();
let nextId = 1;
const idOf = (value: object): number => {
  let id = ids.get(value);
  if (id === undefined) {
    id = nextId++;
    ids.set(value, id);
  }
  return id;
};

function readKeys(policies: readonly NamedPolicy[], kinds: ('identity' | 'resource')[]): string[] {
  return [
    ...new Set(policies.flatMap((policy, i) => compilePolicy(policy, kinds[i] as 'identity' | 'resource').flatMap((s) => s.conditionKeys))),
  ].sort();
}

/** A decision and the reference's resource type of its ARN (a hit skips the reference check: same action, same ARN). */
export interface CachedDecision {
  decision: Decision;
  resourceType: string;
}

export class DecisionCache {
  private readonly byPrincipal = new WeakMap<object, Map<string, CachedDecision>>();
  private readonly keysOf = new WeakMap<object, string[]>();

  /** The cache key of a request: what the decision can depend on. */
  key(
    principal: object,
    identityPolicies: readonly NamedPolicy[],
    resourcePolicy: NamedPolicy | undefined,
    request: AuthorizationRequest,
  ): string {
    let identityKeys = this.keysOf.get(principal);
    if (!identityKeys) {
      identityKeys = readKeys(
        identityPolicies,
        identityPolicies.map(() => 'identity'),
      );
      this.keysOf.set(principal, identityKeys);
    }
    let resourceKeys: string[] = [];
    if (resourcePolicy) {
      resourceKeys = this.keysOf.get(resourcePolicy.document) ?? readKeys([resourcePolicy], ['resource']);
      this.keysOf.set(resourcePolicy.document, resourceKeys);
    }
    const base = `${request.action.toLowerCase()}\n${request.resource}\n${resourcePolicy ? idOf(resourcePolicy.document) : 0}`;
    if (identityKeys.length === 0 && resourceKeys.length === 0) return base;
    const lookup = contextValues(request);
    const values = [...new Set([...identityKeys, ...resourceKeys])].map((key) => {
      const value = lookup(key);
      // An unknown key: the evaluation throws if a statement gets to it, and throws are not cached.
      return value === undefined ? '-' : value === UNKNOWN_KEY ? '?' : JSON.stringify(value);
    });
    return `${base}\n${JSON.stringify(values)}`;
  }

  get(principal: object, key: string): CachedDecision | undefined {
    return this.byPrincipal.get(principal)?.get(key);
  }

  set(principal: object, key: string, decision: CachedDecision): void {
    let decisions = this.byPrincipal.get(principal);
    if (!decisions) {
      decisions = new Map();
      this.byPrincipal.set(principal, decisions);
    }
    decisions.set(key, decision);
  }
}
