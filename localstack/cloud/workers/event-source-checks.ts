/**
 * What Lambda checks when it creates each event source mapping, made before the workers start
 * (./event-source-permissions.ts): the queue's visibility timeout covers the function's timeout, IAM or
 * not; and, with IAM enforced, the function's role may read its source (queue or stream, and the
 * stream's on-failure queue).
 */
import { checkEventSourcePermissions, checkQueueVisibilityCoversTimeout, templateVisibilityTimeouts } from './event-source-permissions';
import type { LocalFunctionOf } from '../lambda/local-functions';
import type { LocalIam } from '../iam/local-iam';
import type { LocalDeployment } from '../template/deploy';

export async function checkEventSources(
  deployment: LocalDeployment,
  functionOf: LocalFunctionOf,
  { settings, enforcement }: LocalIam,
): Promise<void> {
  checkQueueVisibilityCoversTimeout(
    deployment.queueSources.map((s) => ({ fn: functionOf(s.function), queueArn: s.queueArn })),
    templateVisibilityTimeouts(deployment.stack),
  );
  if (!enforcement || settings.mode !== 'enforce') return;
  await checkEventSourcePermissions(enforcement.authorizer, [
    ...deployment.queueSources.map((s) => ({
      fn: functionOf(s.function),
      kind: 'sqs' as const,
      source: deployment.queueUrls[s.queueArn]!,
    })),
    ...deployment.streamSources.map((s) => ({
      fn: functionOf(s.function),
      kind: 'stream' as const,
      source: s.streamArn,
      onFailureQueueUrl: s.onFailureArn ? deployment.queueUrls[s.onFailureArn] : undefined,
    })),
  ]);
}
