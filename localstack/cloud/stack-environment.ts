/**
 * stack.json's `env` (./stack/stack-file.ts): every function's template environment at once with this machine's
 * local layer (not the process environment passed through: scripts and tests read it into theirs), for
 * scripts and tests acting as an administrator; and the stream workers' on-failure queues (the template's
 * *OnFailureQueueUrl outputs), for scripts reading them.
 */
import { SECRETS_KEY, STREAM_WORKERS } from '#infra/definitions';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './constants';
import { relayTaskSharedEnvironment } from './relay-task/relay-task';
import type { LocalDeployment } from './template/deploy';
import type { RelayTask } from './template/relay-task';

export function stackEnvironment(
  deployment: LocalDeployment,
  relayTask: RelayTask,
  localEnv: Record<string, string>,
  secretsKeyFile: string,
): Record<string, string> {
  const env: Record<string, string> = Object.assign(
    {
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      [SECRETS_KEY.localFileEnvVar]: secretsKeyFile,
    },
    ...deployment.functions.map((fn) => fn.environment),
    relayTaskSharedEnvironment(relayTask.environment),
    localEnv,
  ) as Record<string, string>;
  for (const source of deployment.streamSources) {
    const definition = STREAM_WORKERS.find((worker) => worker.name === source.function.name);
    if (definition && source.onFailureArn) env[definition.onFailure.envVar] = deployment.queueUrls[source.onFailureArn]!;
  }
  return env;
}
