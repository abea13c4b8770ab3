/**
 * The environment a deployed function sees on the local cloud, in layers (later wins):
 * 1. The local cloud's own process environment, minus every variable the template manages (resource
 *    names and URLs, settings: any variable some function's template sets, every ENV name of
 *    shared/config/config.ts and every setting of shared/config/settings.ts). What stays are tuning knobs the tests
 *    and a developer set on `npm start` (WEBHOOK_RETRY_DELAYS, SEND_LEASE_S, ...), which a deployed function
 *    would not have and reads with a default. (LOG_LEVEL is a setting: `LOG_LEVEL=info npm start` reaches the
 *    functions through the template, as `-c logLevel=info` does on AWS.)
 * 2. What Lambda's runtime sets (https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime):
 *    AWS_REGION, AWS_DEFAULT_REGION, AWS_LAMBDA_FUNCTION_NAME, _MEMORY_SIZE, _VERSION, AWS_EXECUTION_ENV
 *    and the role's credentials (here the local cloud's keys; its IAM checks name the function's role).
 *    For an ECS task on Fargate (the SMTP relay), what ECS sets instead
 *    (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/ecs-environment-variables.html):
 *    AWS_REGION, AWS_DEFAULT_REGION, AWS_EXECUTION_ENV=AWS_ECS_FARGATE, and the task role's credentials
 *    (ECS serves them at AWS_CONTAINER_CREDENTIALS_RELATIVE_URI; here the local keys, like the functions').
 * 3. The function's Environment.Variables from the template.
 * 4. What the local machine changes: the emulators' endpoints, the DNS resolver, local CAs and fakes
 *    (cloud.ts lists them), as the network around a Lambda differs from this machine's.
 * So a variable the template does not give a function is missing for it, as on AWS.
 */
import { ENV } from '#shared/config/config';
import { DEFAULT_SETTINGS } from '#shared/config/settings';

export interface FunctionEnvironmentInput {
  /** The function's template environment. */
  template: Record<string, string>;
  /** Variables every function's template sets (some function's): managed by the template. */
  managed: ReadonlySet<string>;
  base: NodeJS.ProcessEnv;
  runtime: LambdaRuntime | FargateRuntime;
  local: Record<string, string>;
}

interface RuntimeCredentials {
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

export interface LambdaRuntime extends RuntimeCredentials {
  functionName: string;
  memoryMb: number;
  runtime: string;
}

/** An ECS task's container on Fargate. */
export interface FargateRuntime extends RuntimeCredentials {
  container: 'fargate';
}

function runtimeVariables(runtime: LambdaRuntime | FargateRuntime): Record<string, string> {
  const common = {
    AWS_REGION: runtime.region,
    AWS_DEFAULT_REGION: runtime.region,
    AWS_ACCESS_KEY_ID: runtime.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: runtime.credentials.secretAccessKey,
  };
  if ('container' in runtime) return { ...common, AWS_EXECUTION_ENV: 'AWS_ECS_FARGATE' };
  return {
    ...common,
    AWS_LAMBDA_FUNCTION_NAME: runtime.functionName,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(runtime.memoryMb),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_EXECUTION_ENV: `AWS_Lambda_${runtime.runtime}`,
  };
}

/** Every variable the template may manage: shared/config/config.ts's ENV names and shared/config/settings.ts's settings. */
export function templateManagedNames(templateEnvironments: Record<string, string>[]): Set<string> {
  return new Set([...Object.values(ENV), ...Object.keys(DEFAULT_SETTINGS), ...templateEnvironments.flatMap((env) => Object.keys(env))]);
}

export function functionEnvironment(input: FunctionEnvironmentInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.base)) {
    if (value !== undefined && !input.managed.has(name) && !name.startsWith('AWS_')) env[name] = value;
  }
  Object.assign(env, runtimeVariables(input.runtime), input.template, input.local);
  return env;
}
