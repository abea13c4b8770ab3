/**
 * The deployed resources in infra/definitions' terms (queue ids, topic ids, bucket ids), for stack.json:
 * scripts and tests find the send queue's DLQ or the SES events topic by what it is, not by a physical name
 * (names come from the template's logical ids: ./physical-names.ts).
 */
import type { LocalDeployment } from './deploy';
import { definitionResources } from './stack-state';

export interface StackResources {
  table: string;
  queues: Record<string, { name: string; url: string; arn: string; dlqName: string; dlqUrl: string; dlqArn: string }>;
  topics: Record<string, { name: string; arn: string }>;
  buckets: Record<string, string>;
  /** Each stream worker's on-failure queue. */
  onFailureQueues: Record<string, { name: string; url: string; arn: string }>;
}

export function stackResources(deployment: LocalDeployment): StackResources {
  const { stack } = deployment;
  const resources: StackResources = { table: deployment.tableName, queues: {}, topics: {}, buckets: {}, onFailureQueues: {} };
  const queue = (logicalId: string) => ({
    name: stack.record(logicalId).name!,
    url: stack.record(logicalId).ref as string,
    arn: stack.record(logicalId).attributes.Arn as string,
  });
  for (const [logicalId, definition] of definitionResources(stack.template)) {
    if (definition.kind === 'queue' || definition.kind === 'dlq') {
      resources.queues[definition.id] ??= { name: '', url: '', arn: '', dlqName: '', dlqUrl: '', dlqArn: '' };
      const entry = resources.queues[definition.id]!;
      const q = queue(logicalId);
      if (definition.kind === 'queue') Object.assign(entry, q);
      else Object.assign(entry, { dlqName: q.name, dlqUrl: q.url, dlqArn: q.arn });
    } else if (definition.kind === 'topic')
      resources.topics[definition.id] = { name: stack.record(logicalId).name!, arn: stack.record(logicalId).ref as string };
    else if (definition.kind === 'bucket') resources.buckets[definition.id] = stack.record(logicalId).name!;
    else if (definition.kind === 'onFailure') resources.onFailureQueues[definition.worker] = queue(logicalId);
  }
  return resources;
}
