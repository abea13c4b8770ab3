/**
 * A registry of hooks applied to every AWS SDK client the factories build (./client-options.ts,
 * ./dynamo-client.ts, ./kms-client.ts). Empty in production: a lookup on `globalThis` per client built,
 * once per cold start, and nothing per call. The embedded local cloud registers its IAM enforcement here
 * (localstack/iam/install.ts), which is why the registry lives on `globalThis` under a `Symbol.for` key:
 * no import from localstack/ reaches a Lambda bundle (test/infra/bundle-size.test.ts).
 */

/** What a hook learns about the client it is given. */
export interface AwsClientInfo {
  /** True when the client was built with credentials other than the function's own (Route 53 with a customer's keys). */
  explicitCredentials: boolean;
}

/** An SDK v3 client, as far as hooks need it. */
export interface HookableClient {
  middlewareStack: unknown;
}

export type AwsClientHook = (client: HookableClient, info: AwsClientInfo) => void;

const REGISTRY = Symbol.for('mailservice.awsClientHooks');

type Registry = Set<AwsClientHook>;
const registry = (): Registry | undefined => (globalThis as { [REGISTRY]?: Registry })[REGISTRY];

/**
 * The SDK's logger middleware (@aws-sdk/core, `loggerMiddleware`) calls its logger's `info` after every call,
 * with the input and the output each copied through the schema's sensitive-data filter, whether the logger
 * writes anything or not (the default NoOpLogger does not): 3-10% of the CPU of a worker's SDK calls
 * (docs/benchmarks.md, "CPU per delivered email"). Nothing of ours reads the SDK's logs (we log our own), so
 * every client drops it (the local cloud's own clients too: its pollers stand for Lambda's, which are not ours).
 */
export function withoutSdkLogging<T extends HookableClient>(client: T): T {
  const stack = client.middlewareStack as { remove?: (name: string) => boolean } | undefined;
  stack?.remove?.('loggerMiddleware');
  return client;
}

/** Drops the SDK's logging (above), applies the registered hooks (none in production) to a client just built, and returns it. */
export function withClientHooks<T extends HookableClient>(client: T, info: AwsClientInfo = { explicitCredentials: false }): T {
  withoutSdkLogging(client);
  const hooks = registry();
  if (hooks) for (const hook of hooks) hook(client, info);
  return client;
}

/** Registers a hook for the clients built from now on; returns its removal. */
export function registerClientHook(hook: AwsClientHook): () => void {
  const holder = globalThis as { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= new Set();
  const hooks = holder[REGISTRY];
  hooks.add(hook);
  return () => {
    hooks.delete(hook);
  };
}
