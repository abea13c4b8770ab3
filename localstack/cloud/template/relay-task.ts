/**
 * The SMTP relay and MX task of the template (AWS::ECS::TaskDefinition, one container): its command is
 * the image's (infra/smtp-relay.Dockerfile), its environment the container definition's Environment, its
 * secrets the container's Secrets (Secrets Manager references, which the local cloud answers with its own
 * local certificate), its role the task role. The local cloud runs the same entry point with this
 * environment (docs/smtp.md).
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-ecs-taskdefinition-containerdefinition.html
 */
import type { DeployedStack } from './deployed-stack';

export interface RelayTask {
  logicalId: string;
  /** The task definition's ARN (what ECS runs). */
  taskDefinitionArn: string;
  /** The container's Environment, resolved. */
  environment: Record<string, string>;
  /** Secret variables and the Secrets Manager reference each comes from. */
  secrets: Record<string, string>;
  roleArn: string;
  /** The task role's logical id (its policies). */
  roleLogicalId: string;
  /** Seconds ECS waits after SIGTERM before SIGKILL (StopTimeout). */
  stopTimeoutSeconds: number;
}

interface ContainerDefinition {
  Name: string;
  Environment?: { Name: string; Value: string }[];
  Secrets?: { Name: string; ValueFrom: string }[];
  StopTimeout?: number;
}

export function readRelayTask(stack: DeployedStack): RelayTask | undefined {
  const tasks = stack.ofType('AWS::ECS::TaskDefinition');
  if (tasks.length === 0) return undefined;
  if (tasks.length > 1) throw new Error(`the local cloud runs one task (the relay), the template has ${tasks.length}`);
  const logicalId = tasks[0]!;
  const p = stack.properties<{ ContainerDefinitions: ContainerDefinition[]; TaskRoleArn: string }>(logicalId);
  if (p.ContainerDefinitions.length !== 1) throw new Error(`${logicalId}: the local cloud runs tasks of one container`);
  const container = p.ContainerDefinitions[0]!;
  const role = (stack.resource(logicalId).Properties?.TaskRoleArn as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt'];
  if (!role) throw new Error(`${logicalId}: the local cloud needs TaskRoleArn as Fn::GetAtt of a role in the template`);
  return {
    logicalId,
    taskDefinitionArn: stack.record(logicalId).ref as string,
    environment: Object.fromEntries((container.Environment ?? []).map((v) => [v.Name, v.Value])),
    secrets: Object.fromEntries((container.Secrets ?? []).map((s) => [s.Name, s.ValueFrom])),
    roleArn: p.TaskRoleArn,
    roleLogicalId: role[0],
    stopTimeoutSeconds: container.StopTimeout ?? 30,
  };
}
