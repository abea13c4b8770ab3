/**
 * A strict resolver of the CloudFormation intrinsic functions CDK emits in our template: Ref, Fn::GetAtt,
 * Fn::Join, Fn::Sub, Fn::Select, Fn::Split, Fn::If with the template's Conditions (Fn::Equals, Fn::And,
 * Fn::Or, Fn::Not, Condition), Fn::GetAZs, Fn::Base64 and the pseudo parameters, as
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html
 * and .../pseudo-parameter-reference.html define them.
 *
 * Strict: anything it does not know (another Fn::, a Ref to a resource or attribute the scope cannot give,
 * a parameter without a value, a malformed argument) throws with the path of the value, never passes a
 * wrong string on. Why our own and not `cfn-resolver-lib` (1.1.8): tried on this template it silently
 * produced wrong values (an unresolved Fn::GetAtt joined into "<LogicalId>,Arn/index/*"), left
 * `${X.Arn}` inside Fn::Sub unresolved and threw on a resource without Properties (docs/deploy.md,
 * "What the local cloud deploys"). What we need is about a hundred lines that refuse what they do not know.
 */

/** What the template's values refer to: resources' Ref and attributes, parameters, pseudo parameters. */
export interface ResolveScope {
  /** The value of `{ Ref: logicalId }` for a resource; throws when the resource has none the scope knows. */
  ref(logicalId: string): unknown;
  /** The value of `{ 'Fn::GetAtt': [logicalId, attribute] }`; throws when unknown. */
  getAtt(logicalId: string, attribute: string): unknown;
  /** Parameter values (template Parameters given a value, or their Default). */
  parameters: Record<string, unknown>;
  pseudo: { accountId: string; region: string; partition: string; urlSuffix: string; stackName: string; stackId: string };
  /** The template's Conditions section. */
  conditions: Record<string, unknown>;
}

/** `{ Ref: 'AWS::NoValue' }`: the property is removed (in an object) or the element dropped (in a list). */
const NO_VALUE = Symbol('AWS::NoValue');

export class TemplateResolveError extends Error {
  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = 'TemplateResolveError';
  }
}

const PSEUDO_PARAMETERS: Record<string, keyof ResolveScope['pseudo']> = {
  'AWS::AccountId': 'accountId',
  'AWS::Region': 'region',
  'AWS::Partition': 'partition',
  'AWS::URLSuffix': 'urlSuffix',
  'AWS::StackName': 'stackName',
  'AWS::StackId': 'stackId',
};

function pseudoParameter(name: string, scope: ResolveScope): unknown {
  if (name === 'AWS::NoValue') return NO_VALUE;
  const field = PSEUDO_PARAMETERS[name];
  return field ? scope.pseudo[field] : undefined;
}

function ref(name: unknown, scope: ResolveScope, path: string): unknown {
  if (typeof name !== 'string') throw new TemplateResolveError(path, 'Ref takes a logical id or a parameter name');
  const pseudo = pseudoParameter(name, scope);
  if (pseudo !== undefined) return pseudo;
  if (name.startsWith('AWS::')) throw new TemplateResolveError(path, `unknown pseudo parameter ${name}`);
  if (Object.hasOwn(scope.parameters, name)) {
    const value = scope.parameters[name];
    if (value === undefined) throw new TemplateResolveError(path, `parameter ${name} has no value`);
    return value;
  }
  return scope.ref(name);
}

function getAtt(argument: unknown, scope: ResolveScope, path: string): unknown {
  const parts = typeof argument === 'string' ? argument.split('.') : argument;
  if (!Array.isArray(parts) || parts.length !== 2 || typeof parts[0] !== 'string')
    throw new TemplateResolveError(path, 'Fn::GetAtt takes [logicalId, attribute]');
  const attribute = resolveAt(parts[1], scope, `${path}/Fn::GetAtt/1`);
  if (typeof attribute !== 'string') throw new TemplateResolveError(path, 'Fn::GetAtt attribute must be a string');
  return scope.getAtt(parts[0], attribute);
}

function asString(value: unknown, path: string, what: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TemplateResolveError(path, `${what} must resolve to a string, got ${JSON.stringify(value)}`);
}

function sub(argument: unknown, scope: ResolveScope, path: string): string {
  const [text, variables] =
    typeof argument === 'string' ? [argument, {}] : Array.isArray(argument) && argument.length === 2 ? argument : [undefined, undefined];
  if (typeof text !== 'string' || typeof variables !== 'object' || variables === null)
    throw new TemplateResolveError(path, 'Fn::Sub takes a string or [string, { variables }]');
  const values = variables as Record<string, unknown>;
  return text.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    if (name.startsWith('!')) return `\${${name.slice(1)}}`; // ${!Literal} writes ${Literal}
    if (Object.hasOwn(values, name)) return asString(resolveAt(values[name], scope, `${path}/${name}`), path, `Fn::Sub variable ${name}`);
    const dot = name.indexOf('.');
    const value =
      dot > 0 && !name.startsWith('AWS::') ? scope.getAtt(name.slice(0, dot), name.slice(dot + 1)) : ref(name, scope, `${path}/${whole}`);
    return asString(value, path, `Fn::Sub ${whole}`);
  });
}

function list(value: unknown, path: string, what: string): unknown[] {
  if (!Array.isArray(value)) throw new TemplateResolveError(path, `${what} must be a list`);
  return value;
}

function condition(name: unknown, scope: ResolveScope, path: string): boolean {
  if (typeof name !== 'string' || !Object.hasOwn(scope.conditions, name))
    throw new TemplateResolveError(path, `unknown condition ${JSON.stringify(name)}`);
  const value = resolveAt(scope.conditions[name], scope, `Conditions/${name}`);
  if (typeof value !== 'boolean') throw new TemplateResolveError(path, `condition ${name} is not a boolean`);
  return value;
}

function intrinsic(name: string, argument: unknown, scope: ResolveScope, path: string): unknown {
  const at = `${path}/${name}`;
  switch (name) {
    case 'Ref':
      return ref(argument, scope, at);
    case 'Fn::GetAtt':
      return getAtt(argument, scope, at);
    case 'Fn::Join': {
      const [separator, items] = list(argument, at, 'Fn::Join');
      if (typeof separator !== 'string') throw new TemplateResolveError(at, 'Fn::Join separator must be a string');
      const values = list(resolveAt(items, scope, `${at}/1`), at, 'Fn::Join values');
      return values.map((item, i) => asString(item, `${at}/1/${i}`, 'Fn::Join value')).join(separator);
    }
    case 'Fn::Sub':
      return sub(argument, scope, at);
    case 'Fn::Select': {
      const [index, items] = list(argument, at, 'Fn::Select');
      const i = Number(resolveAt(index, scope, `${at}/0`));
      const values = list(resolveAt(items, scope, `${at}/1`), at, 'Fn::Select list');
      if (!Number.isInteger(i) || i < 0 || i >= values.length)
        throw new TemplateResolveError(at, `index ${String(index)} is outside a list of ${values.length}`);
      return values[i];
    }
    case 'Fn::Split': {
      const [separator, text] = list(argument, at, 'Fn::Split');
      if (typeof separator !== 'string') throw new TemplateResolveError(at, 'Fn::Split separator must be a string');
      return asString(resolveAt(text, scope, `${at}/1`), at, 'Fn::Split source').split(separator);
    }
    case 'Fn::GetAZs': {
      const region = resolveAt(argument, scope, at);
      const named = region === '' ? scope.pseudo.region : asString(region, at, 'Fn::GetAZs region');
      return ['a', 'b', 'c'].map((zone) => `${named}${zone}`);
    }
    case 'Fn::Base64':
      return Buffer.from(asString(resolveAt(argument, scope, at), at, 'Fn::Base64 value')).toString('base64');
    case 'Fn::If': {
      const [name, whenTrue, whenFalse] = list(argument, at, 'Fn::If');
      return condition(name, scope, at) ? resolveAt(whenTrue, scope, `${at}/1`) : resolveAt(whenFalse, scope, `${at}/2`);
    }
    case 'Condition':
      return condition(argument, scope, at);
    case 'Fn::Equals': {
      const [a, b] = list(argument, at, 'Fn::Equals').map((item, i) => resolveAt(item, scope, `${at}/${i}`));
      return JSON.stringify(a) === JSON.stringify(b);
    }
    case 'Fn::And':
    case 'Fn::Or': {
      const values = list(argument, at, name).map((item, i) => resolveAt(item, scope, `${at}/${i}`));
      if (!values.every((value) => typeof value === 'boolean')) throw new TemplateResolveError(at, `${name} takes conditions`);
      return name === 'Fn::And' ? values.every(Boolean) : values.some(Boolean);
    }
    case 'Fn::Not': {
      const [value] = list(argument, at, 'Fn::Not').map((item) => resolveAt(item, scope, at));
      if (typeof value !== 'boolean') throw new TemplateResolveError(at, 'Fn::Not takes a condition');
      return !value;
    }
    default:
      throw new TemplateResolveError(at, `the local cloud does not resolve ${name}`);
  }
}

function isIntrinsic(key: string): boolean {
  return key === 'Ref' || key === 'Condition' || key.startsWith('Fn::');
}

function resolveAt(value: unknown, scope: ResolveScope, path: string): unknown {
  if (Array.isArray(value)) return value.map((item, i) => resolveAt(item, scope, `${path}/${i}`)).filter((item) => item !== NO_VALUE);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1 && isIntrinsic(entries[0]![0])) return intrinsic(entries[0]![0], entries[0]![1], scope, path);
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    const resolved = resolveAt(item, scope, `${path}/${key}`);
    if (resolved !== NO_VALUE) out[key] = resolved;
  }
  return out;
}

/** The value with every intrinsic function resolved; `path` names it in errors (e.g. `Resources/X/Properties`). */
export function resolveValue<T = unknown>(value: unknown, scope: ResolveScope, path = ''): T {
  const resolved = resolveAt(value, scope, path);
  if (resolved === NO_VALUE) throw new TemplateResolveError(path, 'AWS::NoValue where a value is required');
  return resolved as T;
}

/** Whether a resource or output with this Condition exists (no Condition: it does). */
export function conditionHolds(name: string | undefined, scope: ResolveScope, path: string): boolean {
  return name === undefined ? true : condition(name, scope, path);
}
