/**
 * Edits of a synthesized template for tests that deploy it changed (LOCAL_TEMPLATE_FILE): remove what a role
 * is granted or what a resource policy allows, as a mistake in infra/ would leave them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CfnTemplate } from '#localstack/cloud/template/cfn-types';
import { readStackFile } from '#localstack/cloud/stack/stack-file';

type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Principal?: { Service?: string } };

/** A copy of the template a running stack deployed (its stack.json names the file). */
export function deployedTemplate(stackDataDir: string): CfnTemplate {
  return JSON.parse(readFileSync(readStackFile(stackDataDir)!.template!.file, 'utf8')) as CfnTemplate;
}

/** Writes the template into `dir` and returns the file, for LOCAL_TEMPLATE_FILE. */
export function writeTemplate(dir: string, template: CfnTemplate): string {
  const file = join(dir, 'edited.template.json');
  writeFileSync(file, JSON.stringify(template));
  return file;
}

/** The logical id of the role of the function `mailservice <name>`. */
export function roleOfFunction(template: CfnTemplate, name: string): string {
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function' || resource.Properties?.Description !== `mailservice ${name}`) continue;
    const role = (resource.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
    return role[0];
  }
  throw new Error(`no function ${name} in the template`);
}

/** The policy documents of the role's AWS::IAM::Policy resources, or of every resource policy of this type (AWS::SNS::TopicPolicy...). */
function documentsOf(template: CfnTemplate, owner: { role: string } | { policyType: string }): { Statement: Statement[] }[] {
  return Object.values(template.Resources)
    .filter((r) =>
      'role' in owner
        ? r.Type === 'AWS::IAM::Policy' &&
          ((r.Properties?.Roles ?? []) as unknown[]).some((role) => JSON.stringify(role) === JSON.stringify({ Ref: owner.role }))
        : r.Type === owner.policyType,
    )
    .map((r) => {
      const document = r.Properties!.PolicyDocument as { Statement: Statement | Statement[] };
      document.Statement = [document.Statement].flat();
      return document as { Statement: Statement[] };
    });
}

/** Removes the statements that match; throws when none did (the edit would prove nothing). */
export function removeStatements(
  template: CfnTemplate,
  owner: { role: string } | { policyType: string },
  matches: (statement: Statement) => boolean,
): number {
  let removed = 0;
  for (const document of documentsOf(template, owner)) {
    const kept = document.Statement.filter((statement) => !matches(statement));
    removed += document.Statement.length - kept.length;
    document.Statement = kept;
  }
  if (removed === 0) throw new Error(`no statement of ${JSON.stringify(owner)} matched`);
  return removed;
}

/** A statement granting an action of this service prefix (e.g. `dynamodb`). */
export const grantsService = (service: string) => (statement: Statement) =>
  [statement.Action].flat().some((action) => action.startsWith(`${service}:`));

/** Removes every statement of the function's role that grants an action of this service prefix. */
export function removeService(template: CfnTemplate, functionName: string, service: string): number {
  return removeStatements(template, { role: roleOfFunction(template, functionName) }, grantsService(service));
}

/** Removes, from the function's role, the resources of its statements that match (e.g. the table's `/index/*`). */
export function removeResources(template: CfnTemplate, functionName: string, matches: (resource: unknown) => boolean): number {
  let removed = 0;
  for (const { Statement: statements } of documentsOf(template, { role: roleOfFunction(template, functionName) })) {
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
