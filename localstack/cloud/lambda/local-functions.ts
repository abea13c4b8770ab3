/**
 * The template's functions as the local runtime runs them (./function-context.ts): each deployed function
 * with its environment (./workload-environment.ts) and its role's policies. The API groups' handlers are
 * loaded into the local API Gateway by ../api/api-functions.ts.
 */
import type { NamedPolicy } from '../../iam/policy';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../constants';
import type { LocalFunction } from './function-context';
import type { LocalDeployment } from '../template/deploy';
import type { DeployedFunction } from '../template/functions';
import type { WorkloadEnvironmentOf } from './workload-environment';

/** The local function of a deployed function. */
export type LocalFunctionOf = (fn: DeployedFunction) => LocalFunction;

/** A deployed function as the local runtime runs it: its template environment under the layers of ./function-environment.ts. */
function localFunction(fn: DeployedFunction, environment: Record<string, string>, policies: NamedPolicy[]): LocalFunction {
  return {
    name: fn.name,
    functionName: fn.functionName,
    arn: fn.arn,
    entry: fn.entry,
    handlerExport: fn.handlerExport,
    timeoutSeconds: fn.timeoutSeconds,
    memoryMb: fn.memoryMb,
    roleArn: fn.roleArn,
    env: environment,
    policies,
  };
}

/** Every deployed function's local function, each environment computed now. */
export function localFunctions(
  deployment: LocalDeployment,
  environmentOf: WorkloadEnvironmentOf,
  policiesByRole: Map<string, NamedPolicy[]>,
): LocalFunctionOf {
  const functions = new Map(
    deployment.functions.map((fn) => [
      fn.name,
      localFunction(fn, environmentOf(fn.environment, fn), policiesByRole.get(fn.roleLogicalId)!),
    ]),
  );
  return (fn) => functions.get(fn.name)!;
}

/**
 * The local cloud's own region and keys in the process environment, for SDK reads of the environment
 * outside any function's context: the credential chain resolves on a client's first call, which for the
 * SMTP relay and MX comes from a socket event (Node does not carry the context into a socket's events).
 */
export function useLocalIdentity(): void {
  Object.assign(process.env, {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
  });
}
