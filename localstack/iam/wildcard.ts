/**
 * IAM's two wildcards, `*` (any run of characters, none included) and `?` (exactly one character), as
 * used in Action/NotAction, Resource/NotResource and the String*Like / Arn* condition operators.
 *
 * - Actions match case-insensitively: "The prefix and the action name are case insensitive"
 *   (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_action.html).
 * - ARNs match per component: "Each of the six colon-delimited components of the ARN is checked separately
 *   and each can include multi-character match wildcards (*) or single-character match wildcards (?)"
 *   (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html#Conditions_ARN),
 *   case-sensitively; the last component (the resource part) may itself contain colons. The Resource
 *   element follows the same ARN format, with `*` alone meaning every resource
 *   (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_resource.html).
 */

const compiled = new Map<string, RegExp>();

/** The anchored regular expression of a wildcard pattern (cached: policies are compiled once, matched often). */
export function wildcardRegExp(pattern: string, ignoreCase: boolean): RegExp {
  const cacheKey = `${ignoreCase ? 'i' : 's'}${pattern}`;
  let regexp = compiled.get(cacheKey);
  if (!regexp) {
    const body = pattern
      .split('')
      .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\/-]/g, '\\$&')))
      .join('');
    regexp = new RegExp(`^${body}$`, ignoreCase ? 'is' : 's');
    compiled.set(cacheKey, regexp);
  }
  return regexp;
}

export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  return wildcardRegExp(pattern, ignoreCase).test(value);
}

/** `service:Action` against an action pattern (`*`, `s3:Get*`, `dynamodb:Query`), case-insensitive. */
export function actionMatches(pattern: string, action: string): boolean {
  return wildcardMatch(pattern, action, true);
}

/** The six components of an ARN (the sixth keeps its colons), or undefined if it has fewer than six. */
export function arnComponents(arn: string): string[] | undefined {
  const parts: string[] = [];
  let rest = arn;
  for (let i = 0; i < 5; i += 1) {
    const colon = rest.indexOf(':');
    if (colon < 0) return undefined;
    parts.push(rest.slice(0, colon));
    rest = rest.slice(colon + 1);
  }
  parts.push(rest);
  return parts;
}

/**
 * An ARN against an ARN pattern, component by component (ArnLike / ArnEquals, and the Resource element).
 * `*` alone matches anything (including the `*` resource of wildcard-only actions); a pattern or value
 * that is not six components long matches only itself, exactly.
 */
export function arnMatches(pattern: string, arn: string): boolean {
  if (pattern === '*') return true;
  const wanted = arnPatternOf(pattern);
  const actual = arnComponents(arn);
  if (!wanted || !actual) return pattern === arn;
  return wanted.every((part, i) => part.test(actual[i] as string));
}

const arnPatterns = new Map<string, RegExp[] | null>();

/** The six component patterns of an ARN pattern (cached), or null if it is not six components long. */
function arnPatternOf(pattern: string): RegExp[] | null {
  let parts = arnPatterns.get(pattern);
  if (parts === undefined) {
    parts = arnComponents(pattern)?.map((part) => wildcardRegExp(part, false)) ?? null;
    arnPatterns.set(pattern, parts);
  }
  return parts;
}
