/**
 * IAM policy documents as JSON, and their compiled form: every statement checked once, when the policy is
 * first used, against the grammar of https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_grammar.html.
 * Anything this evaluator does not implement (an unknown element, an unknown condition operator, a policy
 * variable) throws UnsupportedPolicyError: the local cloud fails closed and loudly, never allowing by guess.
 */
import { compileConditionBlock, type CompiledCondition } from './conditions';
import { compilePrincipal, type CompiledPrincipal } from './principals';
import { UnsupportedPolicyError } from './errors';
import { refuseVariables } from './variables';

export type OneOrMany<T> = T | T[];

export const asList = <T>(value: OneOrMany<T> | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: OneOrMany<string>;
  NotAction?: OneOrMany<string>;
  Resource?: OneOrMany<string>;
  NotResource?: OneOrMany<string>;
  Principal?: unknown;
  NotPrincipal?: unknown;
  Condition?: Record<string, Record<string, OneOrMany<string | number | boolean>>>;
}

export interface PolicyDocument {
  Version?: string;
  Id?: string;
  Statement: OneOrMany<PolicyStatement>;
}

/** A policy and the name it is reported under in decisions (the template's logical id, "key policy"...). */
export interface NamedPolicy {
  name: string;
  document: PolicyDocument;
}

export interface CompiledStatement {
  policy: string;
  /** Position in the policy's Statement list (0-based), for the explain log when there is no Sid. */
  index: number;
  sid?: string;
  effect: 'Allow' | 'Deny';
  actions: { negated: boolean; patterns: string[] };
  /** Undefined only in resource policies that leave Resource out (then the statement's resource is the policy's own). */
  resources?: { negated: boolean; patterns: string[] };
  principal?: CompiledPrincipal;
  conditions: CompiledCondition[];
  /** Condition keys the statement reads, lower-cased (what a cached decision depends on). */
  conditionKeys: string[];
}

const STATEMENT_ELEMENTS = new Set([
  'Sid',
  'Effect',
  'Action',
  'NotAction',
  'Resource',
  'NotResource',
  'Principal',
  'NotPrincipal',
  'Condition',
]);
const DOCUMENT_ELEMENTS = new Set(['Version', 'Id', 'Statement']);
function stringList(where: string, value: unknown): string[] {
  const list = asList(value as OneOrMany<unknown>);
  if (list.length === 0 || list.some((item) => typeof item !== 'string'))
    throw new UnsupportedPolicyError(`${where} must be a string or a non-empty list of strings`);
  return list as string[];
}

function compileStatement(
  policy: string,
  index: number,
  statement: PolicyStatement,
  version: string | undefined,
  kind: 'identity' | 'resource',
): CompiledStatement {
  const where = `policy "${policy}" statement ${statement.Sid ?? index}`;
  if (typeof statement !== 'object' || statement === null) throw new UnsupportedPolicyError(`${where}: not an object`);
  for (const element of Object.keys(statement)) {
    if (!STATEMENT_ELEMENTS.has(element)) throw new UnsupportedPolicyError(`${where}: unknown element "${element}"`);
  }
  if (statement.Effect !== 'Allow' && statement.Effect !== 'Deny')
    throw new UnsupportedPolicyError(`${where}: Effect must be Allow or Deny, not ${JSON.stringify(statement.Effect)}`);
  if ((statement.Action === undefined) === (statement.NotAction === undefined))
    throw new UnsupportedPolicyError(`${where}: exactly one of Action and NotAction is required`);
  if (statement.Resource !== undefined && statement.NotResource !== undefined)
    throw new UnsupportedPolicyError(`${where}: Resource and NotResource together`);
  const hasPrincipal = statement.Principal !== undefined || statement.NotPrincipal !== undefined;
  if (kind === 'identity' && hasPrincipal)
    throw new UnsupportedPolicyError(`${where}: an identity-based policy cannot have Principal or NotPrincipal`);
  if (kind === 'resource' && !hasPrincipal)
    throw new UnsupportedPolicyError(`${where}: a resource-based policy needs Principal or NotPrincipal`);
  if (statement.Principal !== undefined && statement.NotPrincipal !== undefined)
    throw new UnsupportedPolicyError(`${where}: Principal and NotPrincipal together`);
  // An identity policy statement must name its resources; a resource policy may leave them implicit.
  if (kind === 'identity' && statement.Resource === undefined && statement.NotResource === undefined)
    throw new UnsupportedPolicyError(`${where}: Resource or NotResource is required`);

  const actions = stringList(
    `${where} ${statement.Action !== undefined ? 'Action' : 'NotAction'}`,
    statement.Action ?? statement.NotAction,
  );
  const resourceValue = statement.Resource ?? statement.NotResource;
  const resources = resourceValue === undefined ? undefined : stringList(`${where} Resource`, resourceValue);
  if (resources) refuseVariables(where, resources, version);
  const conditions = compileConditionBlock(where, statement.Condition, version);
  const principalValue = statement.Principal ?? statement.NotPrincipal;
  return {
    policy,
    index,
    ...(statement.Sid !== undefined ? { sid: statement.Sid } : {}),
    effect: statement.Effect,
    actions: { negated: statement.NotAction !== undefined, patterns: actions },
    ...(resources ? { resources: { negated: statement.NotResource !== undefined, patterns: resources } } : {}),
    ...(principalValue !== undefined ? { principal: compilePrincipal(where, principalValue, statement.NotPrincipal !== undefined) } : {}),
    conditions,
    conditionKeys: [...new Set(conditions.map((condition) => condition.key))],
  };
}

const compiledPolicies = new WeakMap<PolicyDocument, CompiledStatement[]>();

/** The statements of a policy, compiled once per document object (throws UnsupportedPolicyError on anything unknown). */
export function compilePolicy(policy: NamedPolicy, kind: 'identity' | 'resource'): CompiledStatement[] {
  const cached = compiledPolicies.get(policy.document);
  if (cached) return cached;
  const document = policy.document;
  if (typeof document !== 'object' || document === null) throw new UnsupportedPolicyError(`policy "${policy.name}": not a JSON object`);
  for (const element of Object.keys(document)) {
    if (!DOCUMENT_ELEMENTS.has(element)) throw new UnsupportedPolicyError(`policy "${policy.name}": unknown element "${element}"`);
  }
  const statements = asList(document.Statement).map((statement, index) =>
    compileStatement(policy.name, index, statement, document.Version, kind),
  );
  compiledPolicies.set(document, statements);
  return statements;
}
