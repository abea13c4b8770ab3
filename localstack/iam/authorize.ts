/**
 * Authorizes one SDK call of a principal: the operation map gives its requests (./operations.ts), each is
 * checked against the Service Authorization Reference (./service-reference.ts), completed with the global
 * condition keys AWS sets for a Lambda function's call, and decided (./evaluate.ts, cached). The call is
 * allowed only if every request is; the first denied request is the one AWS's error names.
 *
 * Global condition keys supplied (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html):
 * aws:SecureTransport=true (the SDK speaks HTTPS to AWS; the local endpoints are plain HTTP, so the
 * bucket policy's TLS-only deny must not fire here), aws:PrincipalArn (the role ARN, for an assumed role),
 * aws:PrincipalAccount, aws:PrincipalType=AssumedRole, aws:RequestedRegion, aws:CurrentTime, aws:EpochTime,
 * aws:ViaAWSService=false; aws:SourceArn, aws:SourceAccount and aws:CalledVia are known absent (they exist
 * only when a service calls on the caller's behalf). Any other key a policy reads throws.
 */
import { callerIdentity, namedPolicies, type Principal } from './caller';
import { DecisionCache } from './decision-cache';
import { UnsupportedRequestError } from './errors';
import { evaluate, type Decision } from './evaluate';
import { authorizationRequests, operationKey, type MappedRequest, type OperationEnv } from './operations';
import type { NamedPolicy, PolicyDocument } from './policy';
import { checkAgainstReference } from './service-reference';

export interface AuthorizerOptions extends OperationEnv {
  /** The resource-based policy of a bucket, queue, topic or KMS key ARN, resolved; undefined if it has none. */
  resourcePolicyOf?: (arn: string) => PolicyDocument | NamedPolicy | undefined;
}

export interface RequestVerdict {
  request: MappedRequest;
  /** The reference's resource type the ARN is of (`*` for wildcard-only actions). */
  resourceType: string;
  decision: Decision;
  cached: boolean;
}

export interface CallVerdict {
  operation: string;
  allowed: boolean;
  verdicts: RequestVerdict[];
  /** The first request not allowed (the one AWS's error names). */
  denied?: RequestVerdict;
  /** Set when the call could not be authorized at all (unmapped operation, unknown action or key): denied. */
  error?: Error;
}

const ABSENT_GLOBAL_KEYS = [
  'aws:SourceArn',
  'aws:SourceAccount',
  'aws:SourceOrgID',
  'aws:SourceOrgPaths',
  'aws:CalledVia',
  'aws:CalledViaFirst',
  'aws:CalledViaLast',
];

export class Authorizer {
  private readonly cache = new DecisionCache();
  private readonly named = new WeakMap<object, NamedPolicy>();

  constructor(private readonly options: AuthorizerOptions) {}

  private resourcePolicy(arn: string | undefined): NamedPolicy | undefined {
    if (!arn || !this.options.resourcePolicyOf) return undefined;
    const policy = this.options.resourcePolicyOf(arn);
    if (!policy) return undefined;
    if ('document' in policy) return policy;
    let namedPolicy = this.named.get(policy);
    if (!namedPolicy) {
      namedPolicy = { name: `resource policy of ${arn}`, document: policy };
      this.named.set(policy, namedPolicy);
    }
    return namedPolicy;
  }

  private withGlobalKeys(principal: Principal, request: MappedRequest): MappedRequest {
    const caller = callerIdentity(principal);
    const now = new Date();
    return {
      ...request,
      context: {
        'aws:SecureTransport': 'true',
        'aws:PrincipalArn': caller.roleArn,
        'aws:PrincipalAccount': caller.accountId,
        'aws:PrincipalType': 'AssumedRole',
        'aws:RequestedRegion': this.options.region,
        'aws:CurrentTime': now.toISOString(),
        'aws:EpochTime': String(Math.floor(now.getTime() / 1000)),
        'aws:ViaAWSService': 'false',
        ...request.context,
      },
      absentKeys: [...(request.absentKeys ?? []), ...ABSENT_GLOBAL_KEYS],
    };
  }

  /** Decides one request (validated against the reference first); throws UnsupportedRequestError/UnsupportedPolicyError when it cannot. */
  async decide(principal: Principal, mapped: MappedRequest): Promise<RequestVerdict> {
    const request = this.withGlobalKeys(principal, mapped);
    const identityPolicies = namedPolicies(principal);
    const resourcePolicy = this.resourcePolicy(mapped.policyHolder);
    const key = this.cache.key(principal, identityPolicies, resourcePolicy, request);
    const hit = this.cache.get(principal, key);
    if (hit) return { request: mapped, ...hit, cached: true };
    const resourceType = await checkAgainstReference(mapped.action, mapped.resource);
    const decision = evaluate(request, callerIdentity(principal), {
      identityPolicies,
      ...(resourcePolicy ? { resourcePolicy } : {}),
      ...(mapped.policyKind ? { resourceKind: mapped.policyKind } : {}),
    });
    this.cache.set(principal, key, { decision, resourceType });
    return { request: mapped, resourceType, decision, cached: false };
  }

  /** The verdict on an SDK call; never throws: what cannot be authorized is denied, with the reason in `error`. */
  async authorize(
    principal: Principal,
    clientName: string,
    commandName: string,
    input: Record<string, unknown>,
    iterators?: ReadonlyMap<string, string>,
  ): Promise<CallVerdict> {
    const operation = operationKey(clientName, commandName);
    const verdicts: RequestVerdict[] = [];
    try {
      const env: OperationEnv = iterators
        ? { streamOfShardIterator: (iterator) => iterators.get(iterator), ...this.options }
        : this.options;
      for (const request of authorizationRequests(clientName, commandName, input, env)) {
        const verdict = await this.decide(principal, request);
        verdicts.push(verdict);
        if (verdict.decision.effect !== 'Allow') return { operation, allowed: false, verdicts, denied: verdict };
      }
      return { operation, allowed: true, verdicts };
    } catch (error) {
      const reason = error instanceof Error ? error : new UnsupportedRequestError(String(error));
      return { operation, allowed: false, verdicts, error: reason };
    }
  }
}
