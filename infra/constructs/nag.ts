/**
 * Acknowledgments of cdk-nag's AwsSolutions findings (docs/deploy.md, "Static checks of the template";
 * checked by test/infra/nag.test.ts), written beside the construct that causes each one.
 *
 * cdk-nag 3 runs as a CDK policy-validation plugin and reads CDK's own acknowledgments
 * (`Validations.of(construct).acknowledge`, aws-cdk-lib's replacement of cdk-nag 2's NagSuppressions):
 * an acknowledgment on a construct covers that construct and everything under it, so each one here is
 * put on the narrowest construct that holds the finding (a CfnResource, or the role whose policy holds
 * a wildcard). IAM5 (wildcard permissions) is acknowledged per finding, `AwsSolutions-IAM5[Resource::<arn>]`
 * or `[Action::<action>]`, never for the rule as a whole, so a new wildcard still fails the test.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference';
import { Construct, type IConstruct } from 'constructs';

/** Acknowledges rule `AwsSolutions-<rule>` on `scope` and everything under it, saying why it is acceptable here. */
export function acknowledgeRule(scope: IConstruct, rule: string, reason: string): void {
  if (rule.startsWith('IAM5'))
    throw new Error('Acknowledge IAM5 per wildcard with acknowledgeWildcardResources/acknowledgeWildcardActions');
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${rule}`, reason });
}

/**
 * Acknowledges IAM5 for exactly these wildcard resources (ARN strings or tokens, as given to the grant)
 * in the policies of `grantee`'s principal (a role), and no other wildcard.
 */
export function acknowledgeWildcardResources(grantee: iam.IGrantable, resourceArns: string[], reason: string): void {
  const principal = principalConstruct(grantee);
  const stack = Stack.of(principal);
  for (const arn of resourceArns) {
    Validations.of(principal).acknowledge({ id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(stack.resolve(arn))}]`, reason });
  }
}

/** Acknowledges IAM5 for exactly these wildcard actions (e.g. `s3:GetObject*`) in the policies of `grantee`'s principal. */
export function acknowledgeWildcardActions(grantee: iam.IGrantable, actions: string[], reason: string): void {
  const principal = principalConstruct(grantee);
  for (const action of actions) Validations.of(principal).acknowledge({ id: `AwsSolutions-IAM5[Action::${action}]`, reason });
}

function principalConstruct(grantee: iam.IGrantable): IConstruct {
  const principal = grantee.grantPrincipal;
  if (!Construct.isConstruct(principal)) throw new Error('IAM5 acknowledgments need a principal that is a construct of this app (a role)');
  return principal;
}
