/**
 * Physical names of the resources CDK leaves CloudFormation to name (tables, queues, topics, buckets,
 * roles, functions). CloudFormation names them `<stack>-<logical id>-<random suffix>`
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-name.html); the
 * local cloud uses the same shape without the random suffix, so a name is stable across starts of one data
 * folder and a changed logical id is a new resource, as a replacement is on AWS. Each service's name rules
 * apply (lengths, characters, lower case for buckets); a name over its limit keeps the stack prefix and the
 * logical id's tail (CDK's logical ids end with an 8-character hash, so names stay unique).
 */

interface NameRule {
  max: number;
  lowerCase?: boolean;
}

/** Name limits: DynamoDB 255, SQS 80, SNS 256, S3 63 lower case, IAM roles 64, Lambda functions 64. */
const RULES: Record<string, NameRule> = {
  'AWS::DynamoDB::Table': { max: 255 },
  'AWS::SQS::Queue': { max: 80 },
  'AWS::SNS::Topic': { max: 256 },
  'AWS::S3::Bucket': { max: 63, lowerCase: true },
  'AWS::IAM::Role': { max: 64 },
  'AWS::Lambda::Function': { max: 64 },
  'AWS::Logs::LogGroup': { max: 512 },
};

/** The local physical name of a resource CloudFormation would name. */
export function physicalName(stackName: string, logicalId: string, type: string): string {
  const rule = RULES[type];
  if (!rule) throw new Error(`the local cloud has no naming rule for ${type} (${logicalId})`);
  let name = `${stackName}-${logicalId}`;
  if (name.length > rule.max) {
    const tail = logicalId.slice(-Math.min(logicalId.length, rule.max - stackName.length - 1));
    name = `${stackName}-${tail}`.slice(0, rule.max);
  }
  return rule.lowerCase ? name.toLowerCase() : name;
}
