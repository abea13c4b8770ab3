/**
 * The template's IAM, resolved for the local IAM evaluator (localstack/iam/): each role's identity
 * policies (every AWS::IAM::Policy naming the role in `Roles`, the role's inline `Policies`), and each
 * resource's resource policy (AWS::S3::BucketPolicy, AWS::SQS::QueuePolicy, AWS::SNS::TopicPolicy, the
 * KMS key's KeyPolicy), by the resource's ARN. Managed policies (ManagedPolicyArns) are AWS's documents,
 * which the local cloud does not have: a role with one throws, so a grant is never assumed.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-iam-policy.html
 */
import type { NamedPolicy, PolicyDocument } from '../../iam/policy';
import type { DeployedStack } from './deployed-stack';

function refOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && typeof (value as { Ref?: unknown }).Ref === 'string'
    ? (value as { Ref: string }).Ref
    : undefined;
}

/** The identity policies of every role of the template, by the role's logical id. */
export function rolePolicies(stack: DeployedStack): Map<string, NamedPolicy[]> {
  const policies = new Map<string, NamedPolicy[]>();
  for (const roleId of stack.ofType('AWS::IAM::Role')) {
    const role = stack.properties<{ ManagedPolicyArns?: string[]; Policies?: { PolicyName: string; PolicyDocument: PolicyDocument }[] }>(
      roleId,
    );
    if (role.ManagedPolicyArns?.length)
      throw new Error(`${roleId}: the local cloud cannot evaluate managed policies (${role.ManagedPolicyArns.join(', ')})`);
    policies.set(
      roleId,
      (role.Policies ?? []).map((p) => ({ name: `${roleId}/${p.PolicyName}`, document: p.PolicyDocument })),
    );
  }
  for (const policyId of stack.ofType('AWS::IAM::Policy')) {
    const roles = (stack.resource(policyId).Properties?.Roles as unknown[] | undefined) ?? [];
    const { PolicyDocument: document } = stack.properties<{ PolicyDocument: PolicyDocument }>(policyId);
    for (const role of roles) {
      const roleId = refOf(role);
      if (!roleId || !policies.has(roleId)) throw new Error(`${policyId}: Roles must name roles of the template with Ref`);
      policies.get(roleId)!.push({ name: policyId, document });
    }
  }
  return policies;
}

/** Resource policies by resource ARN (statements of several policies on one resource are merged). */
export function resourcePolicies(stack: DeployedStack, queueArnOfUrl: (url: string) => string): Map<string, NamedPolicy> {
  const byArn = new Map<string, NamedPolicy>();
  const add = (arn: string, name: string, document: PolicyDocument) => {
    const existing = byArn.get(arn);
    const statements = [document.Statement].flat();
    if (!existing) byArn.set(arn, { name, document: { Version: document.Version, Statement: statements } });
    else existing.document.Statement = [[existing.document.Statement].flat(), statements].flat();
  };
  for (const id of stack.ofType('AWS::S3::BucketPolicy')) {
    const p = stack.properties<{ Bucket: string; PolicyDocument: PolicyDocument }>(id);
    add(`arn:aws:s3:::${p.Bucket}`, id, p.PolicyDocument);
  }
  for (const id of stack.ofType('AWS::SQS::QueuePolicy')) {
    const p = stack.properties<{ Queues: string[]; PolicyDocument: PolicyDocument }>(id);
    for (const url of p.Queues) add(queueArnOfUrl(url), id, p.PolicyDocument);
  }
  for (const id of stack.ofType('AWS::SNS::TopicPolicy')) {
    const p = stack.properties<{ Topics: string[]; PolicyDocument: PolicyDocument }>(id);
    for (const arn of p.Topics) add(arn, id, p.PolicyDocument);
  }
  for (const id of stack.ofType('AWS::KMS::Key')) {
    const p = stack.properties<{ KeyPolicy: PolicyDocument }>(id);
    add(stack.record(id).attributes.Arn as string, `${id} key policy`, p.KeyPolicy);
  }
  return byArn;
}
