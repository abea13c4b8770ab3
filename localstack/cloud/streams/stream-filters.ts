/**
 * Lambda's event filtering for a stream mapping (https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventfiltering.html):
 * records matching none of the definition's patterns are dropped and checkpointed, never handed to the
 * function (./stream-poller.ts). The patterns' forms: infra/definitions (FilterPattern, FilterValue).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { FilterPattern, FilterValue } from '#infra/definitions';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function numericMatch(conditions: (string | number)[], value: number): boolean {
  for (let i = 0; i + 1 < conditions.length; i += 2) {
    const operator = conditions[i];
    const operand = Number(conditions[i + 1]);
    const ok =
      operator === '='
        ? value === operand
        : operator === '>'
          ? value > operand
          : operator === '>='
            ? value >= operand
            : operator === '<'
              ? value < operand
              : operator === '<='
                ? value <= operand
                : false;
    if (!ok) return false;
  }
  return true;
}

function matchesOne(rule: FilterValue, value: unknown): boolean {
  if (rule === null || typeof rule !== 'object') return value === rule;
  if ('prefix' in rule) return typeof value === 'string' && value.startsWith(rule.prefix);
  if ('suffix' in rule) return typeof value === 'string' && value.endsWith(rule.suffix);
  if ('equals-ignore-case' in rule) return typeof value === 'string' && value.toLowerCase() === rule['equals-ignore-case'].toLowerCase();
  if ('anything-but' in rule) {
    const excluded = ([] as (string | number)[]).concat(rule['anything-but']);
    return value !== undefined && !excluded.includes(value as string | number);
  }
  if ('numeric' in rule) return typeof value === 'number' && numericMatch(rule.numeric, value);
  return false;
}

function matchesLeaf(rules: FilterValue[], field: unknown): boolean {
  const values = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return rules.some((rule) => {
    if (isObject(rule) && 'exists' in rule) return rule.exists === (field !== undefined);
    return values.some((value) => matchesOne(rule, value));
  });
}

function matchesPattern(pattern: FilterPattern, value: unknown): boolean {
  return Object.entries(pattern).every(([key, rule]) => {
    const field = isObject(value) ? value[key] : undefined;
    return Array.isArray(rule) ? matchesLeaf(rule, field) : matchesPattern(rule, isObject(field) ? field : undefined);
  });
}

/** Lambda event filtering: a record is kept when it matches one of the patterns (or there are none). */
export function matchesFilters(patterns: readonly FilterPattern[], record: DynamoDBRecord): boolean {
  return patterns.length === 0 || patterns.some((pattern) => matchesPattern(pattern, record));
}
