/**
 * The Condition element: operators, IfExists, the ForAnyValue:/ForAllValues: set operators and the Null
 * check, following
 * - https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html
 * - https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-single-vs-multi-valued-context-keys.html
 * - https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-logic-multiple-context-keys-or-values.html
 *
 * Logic: all operators of a block AND, all keys of an operator AND, the values of one key OR (for the
 * negated operators, "matches none of the values"). A key absent from the request context makes a
 * condition false, and true for the negated operators ("If the policy condition requires that the key is
 * not matched, such as StringNotLike or ArnNotLike, and the right key is not present, the condition is
 * true"), except ...IfExists (true when absent) and Null (tests presence). Condition keys are
 * case-insensitive, values case-sensitive unless the operator says otherwise.
 *
 * Not implemented, so refused when a policy is compiled: BinaryEquals, IpAddress/NotIpAddress, policy
 * variables in values, and any operator not listed below.
 */
import { UnsupportedPolicyError } from './errors';
import { refuseVariables } from './variables';
import { arnMatches, wildcardMatch } from './wildcard';

export type ContextValue = string | readonly string[];

/** The request context: condition key (any case) -> value(s). */
export type RequestContext = Readonly<Record<string, ContextValue>>;

type Compare = (contextValue: string, policyValue: string) => boolean;

interface Operator {
  compare: Compare;
  /** StringNotEquals & co: true when the context value matches none of the policy's values. */
  negated: boolean;
  /** Checks a policy value once, when compiling (a NumericEquals of "abc" is a malformed policy). */
  check?: (policyValue: string) => boolean;
}

const number = (value: string): number => (/^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN);

/** Date condition values: ISO 8601 or POSIX epoch seconds (condition operators doc, "Date condition operators"). */
const date = (value: string): number => (/^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value));

const numeric =
  (test: (a: number, b: number) => boolean): Compare =>
  (c, p) => {
    const a = number(c);
    return !Number.isNaN(a) && test(a, number(p));
  };
const dated =
  (test: (a: number, b: number) => boolean): Compare =>
  (c, p) => {
    const a = date(c);
    return !Number.isNaN(a) && test(a, date(p));
  };

const equals: Compare = (c, p) => c === p;
const equalsIgnoreCase: Compare = (c, p) => c.toLowerCase() === p.toLowerCase();
const like: Compare = (c, p) => wildcardMatch(p, c);
const arnLike: Compare = (c, p) => arnMatches(p, c);
const isNumber = (p: string) => !Number.isNaN(number(p));
const isDate = (p: string) => !Number.isNaN(date(p));
const isBool = (p: string) => p.toLowerCase() === 'true' || p.toLowerCase() === 'false';

const OPERATORS: Record<string, Operator> = {
  StringEquals: { compare: equals, negated: false },
  StringNotEquals: { compare: equals, negated: true },
  StringEqualsIgnoreCase: { compare: equalsIgnoreCase, negated: false },
  StringNotEqualsIgnoreCase: { compare: equalsIgnoreCase, negated: true },
  StringLike: { compare: like, negated: false },
  StringNotLike: { compare: like, negated: true },
  NumericEquals: { compare: numeric((a, b) => a === b), negated: false, check: isNumber },
  NumericNotEquals: { compare: numeric((a, b) => a === b), negated: true, check: isNumber },
  NumericLessThan: { compare: numeric((a, b) => a < b), negated: false, check: isNumber },
  NumericLessThanEquals: { compare: numeric((a, b) => a <= b), negated: false, check: isNumber },
  NumericGreaterThan: { compare: numeric((a, b) => a > b), negated: false, check: isNumber },
  NumericGreaterThanEquals: { compare: numeric((a, b) => a >= b), negated: false, check: isNumber },
  DateEquals: { compare: dated((a, b) => a === b), negated: false, check: isDate },
  DateNotEquals: { compare: dated((a, b) => a === b), negated: true, check: isDate },
  DateLessThan: { compare: dated((a, b) => a < b), negated: false, check: isDate },
  DateLessThanEquals: { compare: dated((a, b) => a <= b), negated: false, check: isDate },
  DateGreaterThan: { compare: dated((a, b) => a > b), negated: false, check: isDate },
  DateGreaterThanEquals: { compare: dated((a, b) => a >= b), negated: false, check: isDate },
  Bool: { compare: equalsIgnoreCase, negated: false, check: isBool },
  // "ArnEquals, ArnLike: Case-sensitive matching of the ARN. Each of the six colon-delimited components
  // of the ARN is checked separately and each can include ... wildcards": the two behave the same.
  ArnEquals: { compare: arnLike, negated: false },
  ArnLike: { compare: arnLike, negated: false },
  ArnNotEquals: { compare: arnLike, negated: true },
  ArnNotLike: { compare: arnLike, negated: true },
};

export interface CompiledCondition {
  /** As written, for the explain log: `ForAllValues:StringLikeIfExists`. */
  operator: string;
  /** The condition key, lower-cased. */
  key: string;
  values: string[];
  set?: 'ForAnyValue' | 'ForAllValues';
  ifExists: boolean;
  /** Undefined for the Null check. */
  base?: Operator;
}

function compileOperator(where: string, written: string): Pick<CompiledCondition, 'set' | 'ifExists' | 'base'> & { isNull: boolean } {
  let name = written;
  let set: CompiledCondition['set'];
  for (const prefix of ['ForAnyValue', 'ForAllValues'] as const) {
    if (name.startsWith(`${prefix}:`)) {
      set = prefix;
      name = name.slice(prefix.length + 1);
    }
  }
  if (name === 'Null') {
    if (set) throw new UnsupportedPolicyError(`${where}: ${written} is not a valid condition operator`);
    return { ifExists: false, isNull: true };
  }
  const ifExists = name.endsWith('IfExists');
  if (ifExists) name = name.slice(0, -'IfExists'.length);
  const base = Object.hasOwn(OPERATORS, name) ? OPERATORS[name] : undefined;
  if (!base) throw new UnsupportedPolicyError(`${where}: condition operator "${written}" is not supported by the local IAM evaluator`);
  return { ...(set ? { set } : {}), ifExists, base, isNull: false };
}

/** Compiles a statement's Condition block; throws on an operator it does not know or a malformed value. */
export function compileConditionBlock(where: string, block: unknown, version: string | undefined): CompiledCondition[] {
  if (block === undefined) return [];
  if (typeof block !== 'object' || block === null || Array.isArray(block))
    throw new UnsupportedPolicyError(`${where}: Condition must be an object`);
  const conditions: CompiledCondition[] = [];
  for (const [written, keys] of Object.entries(block as Record<string, unknown>)) {
    const operator = compileOperator(where, written);
    if (typeof keys !== 'object' || keys === null || Array.isArray(keys))
      throw new UnsupportedPolicyError(`${where}: ${written} must map condition keys to values`);
    for (const [key, raw] of Object.entries(keys as Record<string, unknown>)) {
      const list = Array.isArray(raw) ? raw : [raw];
      if (list.length === 0 || list.some((v) => !['string', 'number', 'boolean'].includes(typeof v))) {
        throw new UnsupportedPolicyError(`${where}: ${written} ${key} must be a string, number, boolean or a non-empty list of them`);
      }
      const values = list.map(String);
      refuseVariables(where, values, version);
      const check = operator.isNull ? isBool : operator.base?.check;
      const bad = check ? values.find((value) => !check(value)) : undefined;
      if (bad !== undefined) throw new UnsupportedPolicyError(`${where}: ${written} cannot compare with "${bad}"`);
      conditions.push({
        operator: written,
        key: key.toLowerCase(),
        values,
        ...(operator.set ? { set: operator.set } : {}),
        ifExists: operator.ifExists,
        ...(operator.base ? { base: operator.base } : {}),
      });
    }
  }
  return conditions;
}

/** One context value against the condition's values: "any matches" or, negated, "none matches". */
function single(condition: CompiledCondition, base: Operator, value: string): boolean {
  const matched = condition.values.some((policyValue) => base.compare(value, policyValue));
  return base.negated ? !matched : matched;
}

/**
 * A compiled condition against the request context. `lookup` returns the value of a lower-cased key,
 * `undefined` when the request does not carry it, and throws for a key the local cloud cannot supply.
 */
export function conditionHolds(condition: CompiledCondition, lookup: (key: string) => ContextValue | undefined): boolean {
  const value = lookup(condition.key);
  if (!condition.base) {
    // Null: "true" means the key must be absent, "false" present.
    const wantsAbsent = condition.values.some((v) => v.toLowerCase() === 'true');
    const wantsPresent = condition.values.some((v) => v.toLowerCase() === 'false');
    return value === undefined ? wantsAbsent : wantsPresent;
  }
  const base = condition.base;
  if (condition.set) {
    const values = value === undefined ? [] : typeof value === 'string' ? [value] : value;
    if (values.length === 0) return condition.set === 'ForAllValues' || condition.ifExists;
    return condition.set === 'ForAllValues'
      ? values.every((v) => single(condition, base, v))
      : values.some((v) => single(condition, base, v));
  }
  if (value === undefined) return condition.ifExists || base.negated;
  if (typeof value !== 'string') {
    if (value.length !== 1) {
      throw new UnsupportedPolicyError(
        `condition ${condition.operator} on the multivalued key ${condition.key} needs ForAnyValue: or ForAllValues: (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-single-vs-multi-valued-context-keys.html)`,
      );
    }
    return single(condition, base, value[0] as string);
  }
  return single(condition, base, value);
}
