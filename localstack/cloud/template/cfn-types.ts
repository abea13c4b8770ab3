/** The parts of a CloudFormation template the local cloud reads (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/template-anatomy.html). */
export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
  Condition?: string;
  Metadata?: Record<string, unknown>;
}

export interface CfnTemplate {
  Parameters?: Record<string, { Type: string; Default?: unknown }>;
  Conditions?: Record<string, unknown>;
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown; Condition?: string }>;
  Rules?: Record<string, unknown>;
}
