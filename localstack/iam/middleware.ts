/**
 * The SDK middleware that enforces IAM on a client's calls. It sits right after the deserializer
 * (`addRelativeTo({ relation: 'after', toMiddleware: 'deserializerMiddleware' })`), where it sees the
 * command (context.clientName / commandName) and its input (args.input), and stands in for the HTTP
 * handler: a denied call gets AWS's AccessDenied response (./access-denied.ts), which the SDK's own
 * deserializer turns into the service's exception. Sitting there rather than at the initialize step
 * also leaves presigning alone (getSignedUrl stops before the deserializer): AWS authorizes a presigned
 * URL when it is used, not when it is signed.
 * Middleware stack reference: https://docs.aws.amazon.com/sdk-for-javascript/v3/developer-guide/middleware.html
 *
 * Calls made with no principal (./caller.ts) are the local cloud's own and go through unevaluated.
 */
import { accessDeniedMessage, accessDeniedResponse } from './access-denied';
import type { Authorizer, CallVerdict } from './authorize';
import { callerIdentity, currentPrincipal, type Principal } from './caller';
import { UnmappedOperationError } from './errors';

export type IamMode = 'enforce' | 'log';

/** What the explain log (onDecision) receives for every evaluated call. */
export interface IamDecisionEvent {
  functionName: string;
  sessionArn: string;
  operation: string;
  allowed: boolean;
  /** Whether a denial failed the call (mode 'enforce') or was only reported (mode 'log'). */
  mode: IamMode;
  requests: {
    action: string;
    resource: string;
    resourceType: string;
    effect: string;
    deniedBy?: string;
    matched: { policy: string; sid?: string; index: number; effect: string }[];
    cached: boolean;
  }[];
  /** AWS's message for the denied request, or why the call could not be authorized. */
  message?: string;
  /** Microseconds spent authorizing the call. */
  micros: number;
}

export interface Enforcement {
  authorizer: Authorizer;
  mode: IamMode;
  onDecision?: (event: IamDecisionEvent) => void;
  /** False once uninstalled: clients built before keep the middleware but it lets everything through. */
  active: () => boolean;
  /** Shard iterator -> stream ARN, learnt from DynamoDB Streams answers (GetRecords names only the iterator). */
  iterators: Map<string, string>;
}

interface Context {
  clientName?: string;
  commandName?: string;
}
type Handler = (args: { input: Record<string, unknown> }) => Promise<{ response?: unknown; output?: Record<string, unknown> }>;
interface Stack {
  add(middleware: unknown, options: Record<string, unknown>): void;
  addRelativeTo(middleware: unknown, options: Record<string, unknown>): void;
}

function eventOf(principal: Principal, verdict: CallVerdict, mode: IamMode, message: string | undefined, micros: number): IamDecisionEvent {
  return {
    functionName: principal.functionName,
    sessionArn: callerIdentity(principal).sessionArn,
    operation: verdict.operation,
    allowed: verdict.allowed,
    mode,
    requests: verdict.verdicts.map(({ request, resourceType, decision, cached }) => ({
      action: request.action,
      resource: request.resource,
      resourceType,
      effect: decision.effect,
      ...(decision.deniedBy ? { deniedBy: decision.deniedBy } : {}),
      matched: decision.matched,
      cached,
    })),
    ...(message ? { message } : {}),
    micros,
  };
}

function denialMessage(principal: Principal, verdict: CallVerdict): string | undefined {
  const sessionArn = callerIdentity(principal).sessionArn;
  if (verdict.denied)
    return accessDeniedMessage(sessionArn, verdict.denied.request.action, verdict.denied.request.resource, verdict.denied.decision);
  if (verdict.error)
    return `User: ${sessionArn} is not authorized to perform: ${verdict.operation} because the local cloud cannot authorize it: ${verdict.error.message}`;
  return undefined;
}

const decidedCalls = new WeakMap<object, { verdict: CallVerdict; message: string | undefined }>();

/**
 * `owner`: the principal that built the client. A call made outside any function's context (Node does not
 * carry the async context into a socket's events, so the SMTP relay's session callbacks run without one)
 * is the builder's: the relay's clients are built in its task's context.
 */
function enforceMiddleware(enforcement: Enforcement, owner: Principal | undefined) {
  return (next: Handler, context: Context): Handler =>
    async (args) => {
      const principal = enforcement.active() ? (currentPrincipal() ?? owner) : undefined;
      if (!principal || !context.clientName || !context.commandName) return next(args);
      // Once per call: the SDK's retries run this again with the same context (an allowed call stays allowed).
      let decided = decidedCalls.get(context);
      if (!decided) {
        const started = process.hrtime.bigint();
        const verdict = await enforcement.authorizer.authorize(
          principal,
          context.clientName,
          context.commandName,
          args.input,
          enforcement.iterators,
        );
        const micros = Number(process.hrtime.bigint() - started) / 1000;
        decided = { verdict, message: denialMessage(principal, verdict) };
        decidedCalls.set(context, decided);
        enforcement.onDecision?.(eventOf(principal, verdict, enforcement.mode, decided.message, micros));
      }
      const { verdict, message } = decided;
      if (verdict.allowed || enforcement.mode === 'log') return next(args);
      // What the evaluator does not know fails loudly with its own error; an unmapped operation and a
      // real denial fail as AWS's AccessDenied.
      if (verdict.error && !(verdict.error instanceof UnmappedOperationError)) throw verdict.error;
      const response = accessDeniedResponse(context.clientName, context.commandName, message ?? 'Access denied');
      if (!response) throw new Error(`${message} (and the local cloud knows no AccessDenied format for ${context.clientName})`);
      return { response };
    };
}

const STREAM_ITERATORS_KEPT = 10_000;

/** Remembers which stream each DynamoDB Streams shard iterator reads, so GetRecords can be authorized on it. */
function shardIteratorMiddleware(enforcement: Enforcement) {
  return (next: Handler, context: Context): Handler =>
    async (args) => {
      const result = await next(args);
      const output = result.output ?? {};
      const remember = (iterator: unknown, stream: string | undefined) => {
        if (typeof iterator !== 'string' || !stream) return;
        enforcement.iterators.set(iterator, stream);
        if (enforcement.iterators.size > STREAM_ITERATORS_KEPT)
          enforcement.iterators.delete(enforcement.iterators.keys().next().value as string);
      };
      if (context.commandName === 'GetShardIteratorCommand') remember(output.ShardIterator, args.input.StreamArn as string | undefined);
      if (context.commandName === 'GetRecordsCommand')
        remember(output.NextShardIterator, enforcement.iterators.get(args.input.ShardIterator as string));
      return result;
    };
}

/** Adds the enforcement middleware to a client's stack (idempotent: re-adding replaces). */
export function addIamMiddleware(client: { middlewareStack: unknown }, enforcement: Enforcement): void {
  const stack = client.middlewareStack as Stack;
  stack.addRelativeTo(enforceMiddleware(enforcement, currentPrincipal()), {
    relation: 'after',
    toMiddleware: 'deserializerMiddleware',
    name: 'localIamEnforcement',
    override: true,
  });
  stack.add(shardIteratorMiddleware(enforcement), { step: 'initialize', priority: 'low', name: 'localIamShardIterators', override: true });
}
