/**
 * A function's Timeout (the template's AWS::Lambda::Function `Timeout`, seconds), enforced on the local
 * cloud's invocations of its handler, as Lambda enforces it
 * (https://docs.aws.amazon.com/lambda/latest/dg/configuration-timeout.html): an invocation still running at
 * its timeout fails, Lambda logs "<time> <request id> Task timed out after N.NN seconds" and the invocation's
 * error is `Sandbox.Timedout`
 * (https://docs.aws.amazon.com/lambda/latest/dg/troubleshooting-invocation.html#troubleshooting-timeouts).
 * What follows is the event source's rule for a failed invocation: an SQS batch is not deleted and comes back
 * after the visibility timeout (../messaging/sqs-poller.ts), a stream batch is retried per its mapping
 * (../streams/stream-poller.ts), a scheduled pass is a failed pass (../workers/scheduled-tasks.ts).
 *
 * One difference the local cloud cannot remove: on AWS the timed-out sandbox is frozen and then discarded, so
 * nothing of the handler runs after its timeout; here the handler is a promise in a shared thread that
 * cannot be killed, so the invocation's outcome is the timeout error at the timeout, but the handler's later
 * side effects (a write, an HTTP request finishing) may still happen (docs/local-cloud/template.md).
 */
import type { Context } from 'aws-lambda';
import { recordInvocation } from './lambda-billing';
import { lambdaContext } from './lambda-http';

/** The error of an invocation that ran past its function's timeout. */
export class LambdaTimeoutError extends Error {
  constructor(readonly elapsedSeconds: number) {
    super(`Task timed out after ${elapsedSeconds.toFixed(2)} seconds`);
    // Lambda's error type for a timed-out invocation (troubleshooting-invocation.html above).
    this.name = 'Sandbox.Timedout';
  }
}

/**
 * Runs one invocation of the function `name`: `invoke` gets the invocation's Lambda context (its deadline is
 * the timeout) and its result is the invocation's when it settles within `timeoutSeconds`; else the
 * invocation fails with a LambdaTimeoutError at the timeout, after `log` got Lambda's line. The handler's own
 * late failure is swallowed (the invocation already failed; on AWS the sandbox would be gone). Its billed
 * duration is recorded (./lambda-billing.ts).
 */
export async function invokeWithinTimeout<T>(
  fn: { name: string; timeoutSeconds: number },
  invoke: (context: Context) => Promise<T>,
  log: (message: string) => void,
): Promise<T> {
  const context = lambdaContext(fn.name, fn.timeoutSeconds * 1000);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new LambdaTimeoutError((performance.now() - started) / 1000);
      log(`${fn.name}: ${new Date().toISOString()} ${context.awsRequestId} ${error.message}`);
      reject(error);
    }, fn.timeoutSeconds * 1000);
  });
  const running = invoke(context);
  try {
    return await Promise.race([running, timedOut]);
  } catch (error) {
    if (error instanceof LambdaTimeoutError) running.catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
    recordInvocation(fn.name, performance.now() - started);
  }
}
