/**
 * Edits of a synthesized template for tests that deploy it changed (LOCAL_TEMPLATE_FILE): remove what one
 * function's role is granted, as a missing grant in infra/ would leave it.
 */
import type { CfnTemplate } from '../../localstack/cloud/template/cfn-types';

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

/** The logical id of the role of the function `mailservice <name>`. */
export function roleOfFunction(template: CfnTemplate, name: string): string {
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function' || resource.Properties?.Description !== `mailservice ${name}`) continue;
    const role = (resource.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
    return role[0];
  }
  throw new Error(`no function ${name} in the template`);
}

function statementsOfRole(template: CfnTemplate, roleId: string): { policy: Record<string, any>; statements: Statement[] }[] {
  return Object.values(template.Resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && ((r.Properties?.Roles ?? []) as unknown[]).some((role) => JSON.stringify(role) === JSON.stringify({ Ref: roleId })))
    .map((r) => {
      const policy = r.Properties!.PolicyDocument as Record<string, any>;
      return { policy, statements: [policy.Statement].flat() as Statement[] };
    });
}

const actionsOf = (statement: Statement): string[] => [statement.Action].flat();

/** Removes every statement of the function's role that grants an action of this service prefix (e.g. `dynamodb`). */
export function removeService(template: CfnTemplate, functionName: string, service: string): number {
  let removed = 0;
  for (const { policy, statements } of statementsOfRole(template, roleOfFunction(template, functionName))) {
    const kept = statements.filter((s) => !actionsOf(s).some((action) => action.startsWith(`${service}:`)));
    removed += statements.length - kept.length;
    policy.Statement = kept;
  }
  if (removed === 0) throw new Error(`${functionName}'s role grants no ${service} action`);
  return removed;
}

/** Removes, from the function's role, the resources of its statements that match (e.g. the table's `/index/*`). */
export function removeResources(template: CfnTemplate, functionName: string, matches: (resource: unknown) => boolean): number {
  let removed = 0;
  for (const { statements } of statementsOfRole(template, roleOfFunction(template, functionName))) {
    for (const statement of statements) {
      const resources = [statement.Resource].flat();
      const kept = resources.filter((resource) => !matches(resource));
      removed += resources.length - kept.length;
      if (kept.length !== resources.length) statement.Resource = kept.length === 1 ? kept[0] : kept;
    }
  }
  if (removed === 0) throw new Error(`${functionName}'s role has no such resource`);
  return removed;
}
