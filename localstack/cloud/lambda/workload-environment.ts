/**
 * The environment of each workload of the template as the local cloud runs it, a function or the relay
 * task's container: its template environment under the layers of ./function-environment.ts, this
 * machine's local layer on top (../cloud.ts lists it).
 */
import { SECRETS_KEY } from '#infra/definitions';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../constants';
import { functionEnvironment, templateManagedNames } from './function-environment';
import type { LocalDeployment } from '../template/deploy';

/** A function's runtime (Lambda's variables) or the relay task's (ECS on Fargate). */
export type WorkloadRuntime = { functionName: string; memoryMb: number; runtime: string } | { container: 'fargate' };

export type WorkloadEnvironmentOf = (template: Record<string, string>, runtime: WorkloadRuntime) => Record<string, string>;

export function workloadEnvironments(
  deployment: LocalDeployment,
  localEnv: Record<string, string>,
  secretsKeyFile: string,
): WorkloadEnvironmentOf {
  const managed = templateManagedNames([...deployment.functions.map((fn) => fn.environment), deployment.relayTask?.environment ?? {}]);
  return (template, runtime) => {
    // Secrets sealed before the KMS emulator (a data folder's `v1:local:`) still open with the local key file,
    // for the functions the template gives the secrets key (shared/adapters/secrets/migrating-secret-box.ts).
    const legacySecrets = template[SECRETS_KEY.envVar] ? { [SECRETS_KEY.localFileEnvVar]: secretsKeyFile } : {};
    return functionEnvironment({
      template,
      managed,
      base: process.env,
      local: { ...localEnv, ...legacySecrets },
      runtime: { ...runtime, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS },
    });
  };
}
