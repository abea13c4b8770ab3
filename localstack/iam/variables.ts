/**
 * Policy variables (`${aws:username}`...) are not implemented: the template's policies use none. In a
 * policy of "Version": "2012-10-17" a `${` starts a variable; in 2008-10-17 it is literal text
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_variables.html). A variable is
 * refused when the policy is compiled, so a future policy that uses one fails loudly instead of
 * matching the literal text.
 */
import { UnsupportedPolicyError } from './errors';

const VARIABLES_VERSION = '2012-10-17';

/** Throws if a value of a 2012-10-17 policy holds a policy variable. */
export function refuseVariables(where: string, values: string[], version: string | undefined): void {
  if (version !== VARIABLES_VERSION) return;
  const variable = values.find((value) => value.includes('${'));
  if (variable !== undefined) {
    throw new UnsupportedPolicyError(
      `${where}: policy variable in "${variable}" is not supported by the local IAM evaluator (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_variables.html)`,
    );
  }
}
