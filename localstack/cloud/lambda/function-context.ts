/**
 * Which deployed function is running, and the environment it sees. Lambda gives each function its own
 * process with the environment of its template (Environment.Variables plus the runtime's reserved
 * variables); the local cloud runs the API functions in one process and the workers in one thread, so it
 * carries the running function in AsyncLocalStorage and makes `process.env` a view: inside a function,
 * that function's environment only (./function-environment.ts); outside (the local cloud's own code), the
 * process's. A variable missing from a function's template is missing for it here too.
 *
 * The function's module is loaded inside its context, so what its composition root reads at cold start
 * is its own environment. Modules shared by several functions are loaded once, by the first: a value a
 * shared module reads from the environment at load time is that function's (they are all the same
 * settings today; a new one that differs per function must be read when called, not at load).
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { runAs, type Principal } from '../../iam/caller';
import type { NamedPolicy } from '../../iam/policy';
import { loadFunctionModule } from './bundled-functions';

/** A deployed function as the local runtime runs it (plain data: it crosses to the workers thread). */
export interface LocalFunction {
  /** Name in infra/functions.ts. */
  name: string;
  /** Lambda's function name and ARN. */
  functionName: string;
  arn: string;
  /** Source entry (relative to the project root) and its handler export. */
  entry: string;
  handlerExport: string;
  timeoutSeconds: number;
  memoryMb: number;
  roleArn: string;
  /** The whole environment the function sees. */
  env: Record<string, string>;
  /** The role's policies from the template, resolved: its SDK calls are authorized against them (../iam/iam-setup.ts). */
  policies: NamedPolicy[];
}

const running = new AsyncLocalStorage<LocalFunction>();
let installed = false;

/** Makes process.env the running function's environment inside a function (once per thread). */
export function installFunctionEnvironments(): void {
  if (installed) return;
  installed = true;
  const base = process.env;
  const view = (): Record<string, string | undefined> => running.getStore()?.env ?? base;
  process.env = new Proxy(base, {
    get: (_target, key) => (typeof key === 'string' ? view()[key] : undefined),
    set: (_target, key, value) => {
      if (typeof key === 'string') view()[key] = String(value);
      return true;
    },
    has: (_target, key) => typeof key === 'string' && view()[key] !== undefined,
    deleteProperty: (_target, key) => (typeof key === 'string' ? delete view()[key] : true),
    ownKeys: () => Reflect.ownKeys(view()),
    getOwnPropertyDescriptor: (_target, key) => {
      const value = typeof key === 'string' ? view()[key] : undefined;
      return value === undefined ? undefined : { value, writable: true, enumerable: true, configurable: true };
    },
  });
}

/** The function as IAM's caller: its role's session (localstack/iam/caller.ts). */
export function principalOf(fn: Pick<LocalFunction, 'functionName' | 'roleArn' | 'policies'>): Principal {
  return { functionName: fn.functionName, roleArn: fn.roleArn, policies: fn.policies };
}

/** Runs `callback` as the function: its environment, and its role for IAM. */
export function runInFunction<T>(fn: LocalFunction, callback: () => T): T {
  return running.run(fn, () => runAs(principalOf(fn), callback));
}

/**
 * The function's handler, loaded inside its context (its cold start sees its environment), wrapped so
 * every invocation runs inside it too. `require`, not import(): in a worker thread only tsx's CommonJS
 * hook is registered, and a synchronous load keeps the context. `H` is the handler's type as the caller
 * names it: the export is only checked to be a function.
 */
export function loadFunctionHandler<H extends (...args: never[]) => unknown>(fn: LocalFunction): H {
  installFunctionEnvironments();
  const module = runInFunction(fn, () => loadFunctionModule(fn.entry));
  const handler = module[fn.handlerExport];
  if (typeof handler !== 'function') throw new Error(`${fn.entry} does not export ${fn.handlerExport} (the handler of ${fn.functionName})`);
  return ((...args: unknown[]) => runInFunction(fn, () => (handler as (...a: unknown[]) => unknown)(...args))) as unknown as H;
}

/**
 * The function's handler, loaded on its first invocation as Lambda loads a function's code on its first
 * (cold) invocation, not when it is deployed: a stack whose test calls a few endpoints loads only their
 * functions (each module load was 5-60 ms of the start's CPU, 0.37 s for the API's alone). A load that
 * fails is tried again on the next invocation, as Lambda runs a failed init again
 * (https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtime-environment.html, "Init errors").
 */
export function loadOnFirstInvoke<H extends (...args: never[]) => unknown>(fn: LocalFunction): H {
  let handler: H | undefined;
  return ((...args: Parameters<H>) => {
    handler ??= loadFunctionHandler<H>(fn);
    return handler(...args);
  }) as unknown as H;
}
