/** The stack's name (LOCAL_STACK_NAME), as CloudFormation's: the prefix of the physical names it gives. */
export function stackNameOf(options: { stackName?: string }): string {
  const name = options.stackName ?? 'Mailservice';
  // CloudFormation's rule: letters, digits and hyphens, a letter first, at most 128 characters.
  // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cfn-using-console-create-stack-parameters.html
  if (!/^[A-Za-z][A-Za-z0-9-]{0,127}$/.test(name))
    throw new Error(`LOCAL_STACK_NAME "${name}" is not a stack name: letters, digits and hyphens, a letter first, at most 128 characters`);
  return name;
}
