/**
 * What an entry of the operation map (../operations.ts) is: a Mapper turns an SDK call's input into the
 * IAM authorization requests AWS makes for it (MappedRequest). Plus `optionalKeys`, shared by the
 * services' modules beside this one.
 */
import type { AuthorizationRequest } from '../evaluate';
import type { Input, OperationEnv } from '../operation-arns';

export interface MappedRequest extends AuthorizationRequest {
  /** The ARN of the resource whose resource-based policy applies (bucket, queue, topic, KMS key), if any. */
  policyHolder?: string;
  policyKind?: 'kms-key';
}

export type Mapper = (input: Input, env: OperationEnv) => MappedRequest[];

/** Optional request members that become condition keys: present -> in context, absent -> known absent. */
export function optionalKeys(input: Input, keys: Record<string, string>): Pick<AuthorizationRequest, 'context' | 'absentKeys'> {
  const context: Record<string, string> = {};
  const absentKeys: string[] = [];
  for (const [conditionKey, member] of Object.entries(keys)) {
    const value = input[member];
    if (value === undefined || value === null) absentKeys.push(conditionKey);
    else context[conditionKey] = String(value);
  }
  return { context, absentKeys };
}
