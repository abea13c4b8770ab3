/**
 * Infra test helpers: synthesise the stack in-process with stub function code (never the real
 * bundles) and the feature flags of cdk.json, and read IAM/environment out of the template.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { cdkJsonContext, stubFunctionsDir } from '#infra/stub-functions';
import { MailserviceStack, type MailserviceStackProps } from '#infra/stacks/mailservice-stack';

export { cdkJsonContext, stubFunctionsDir };

export interface SynthOptions {
  context?: Record<string, unknown>;
  props?: MailserviceStackProps;
  /** Run CDK's built-in CloudFormation validation (a few seconds of WASM). Default false. */
  validation?: boolean;
  /** Functions to stub; default every function of the definitions. */
  functionNames?: string[];
}

export interface Synthesised {
  app: App;
  stack: MailserviceStack;
  template: Template;
  cleanup(): void;
}

export function createStack(options: SynthOptions = {}): Omit<Synthesised, 'template'> {
  const functionsDir = stubFunctionsDir(options.functionNames);
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailservice-cdk-'));
  const app = new App({
    outdir,
    context: { ...cdkJsonContext(), ...options.context },
    builtinCloudFormationValidation: options.validation ?? false,
  });
  const cleanup = (): void => {
    fs.rmSync(functionsDir, { recursive: true, force: true });
    fs.rmSync(outdir, { recursive: true, force: true });
  };
  try {
    const stack = new MailserviceStack(app, 'Mailservice', { functionsDir, ...options.props });
    return { app, stack, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

export function synth(options: SynthOptions = {}): Synthesised {
  const created = createStack(options);
  return { ...created, template: Template.fromStack(created.stack) };
}

let defaultSynth: Synthesised | undefined;

/**
 * The stack as `cdk synth` makes it with cdk.json's context alone, synthesised once per test file: the files of
 * ./default-stack/ run in one (./default-stack.test.ts) and share it instead of synthesising it each (8 synths and
 * 8 loads of aws-cdk-lib took 28 s of CPU, the one file 7 s; 2026-11-28). Read only: a test that needs other context or props synths
 * its own. Each part calls its cleanup after all of the file's tests (the first removes its folders, the others find none).
 */
export function defaultStack(): Synthesised {
  defaultSynth ??= synth();
  return defaultSynth;
}

/** Logical id of a construct's CloudFormation resource. */
export function logicalId(stack: MailserviceStack, construct: { node: { defaultChild?: unknown } }): string {
  return stack.getLogicalId(construct.node.defaultChild as CfnFunction);
}

/** The Lambda of an API group or worker, by definition name. */
export function functionOf(stack: MailserviceStack, name: string): LambdaFunction {
  const fn = stack.api.functions[name] ?? stack.workers.functions[name] ?? stack.tasks.functions[name];
  if (!fn) throw new Error(`No function named ${name}`);
  return fn;
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

export function actionsOf(statement: Statement): string[] {
  return Array.isArray(statement.Action) ? statement.Action : [statement.Action];
}

export function resourcesOf(statement: Statement): unknown[] {
  return Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
}

type Resources = Record<string, { Type: string; Properties?: Record<string, any> }>;

/** Every statement of every policy attached to the role with this logical id. */
export function roleStatements(template: Template, roleLogicalId: string): Statement[] {
  const policies = template.findResources('AWS::IAM::Policy') as Resources;
  const statements: Statement[] = [];
  for (const policy of Object.values(policies)) {
    const roles = (policy.Properties?.Roles ?? []) as unknown[];
    if (roles.some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleLogicalId }))) {
      statements.push(...(policy.Properties!.PolicyDocument.Statement as Statement[]));
    }
  }
  return statements;
}

/** Statements of a function's execution role. */
export function functionStatements(template: Template, stack: MailserviceStack, name: string): Statement[] {
  const fn = functionOf(stack, name);
  return roleStatements(template, stack.getLogicalId(fn.role!.node.defaultChild as CfnFunction));
}

/** All allowed actions of a function. */
export function functionActions(template: Template, stack: MailserviceStack, name: string): string[] {
  return functionStatements(template, stack, name).flatMap(actionsOf);
}

/** Properties of a function's CloudFormation resource. */
export function functionProperties(template: Template, stack: MailserviceStack, name: string): Record<string, any> {
  const id = logicalId(stack, functionOf(stack, name));
  const resource = (template.toJSON().Resources as Resources)[id];
  if (!resource?.Properties) throw new Error(`No resource ${id}`);
  return resource.Properties;
}

export function functionEnv(template: Template, stack: MailserviceStack, name: string): Record<string, unknown> {
  return (functionProperties(template, stack, name).Environment?.Variables ?? {}) as Record<string, unknown>;
}

/**
 * The DynamoDB actions of a stream relay that reads its stream and gets the table's items by key (an account's
 * endpoint counter, before publishing its events), with `more`; sorted as the tests compare them.
 */
export function streamRelayTableActions(...more: string[]): string[] {
  return [
    'dynamodb:DescribeStream',
    'dynamodb:GetRecords',
    'dynamodb:GetShardIterator',
    'dynamodb:ListStreams',
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    ...more,
  ].sort();
}
