/**
 * The DynamoDB calls a piece of code makes through the harness's services (their repositories all send through
 * the table's one client): the command names in order, for tests that hold a use case to its reads and writes.
 *
 * Only the calls made from `run`'s own async context are counted (AsyncLocalStorage: what `run` awaits, and
 * what that starts, carries the store), so a test counting its calls may run beside others (`it.concurrent`)
 * that use the same client.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { stack } from './stack';

const counting = new AsyncLocalStorage<string[]>();
const wrapped = new WeakSet<object>();

type Send = (command: object, ...rest: unknown[]) => unknown;

/** The client's `send` counts each call into the store of the context that makes it (once per client). */
function countCallsOf(client: { send: Send }): void {
  if (wrapped.has(client)) return;
  wrapped.add(client);
  const send = client.send;
  client.send = function countedSend(this: unknown, command: object, ...rest: unknown[]) {
    counting.getStore()?.push(command.constructor.name);
    return send.call(this, command, ...rest);
  };
}

export async function tableCallsOf(run: () => Promise<void>): Promise<string[]> {
  const client = stack().services.table.client as unknown as { send: Send };
  countCallsOf(client);
  const calls: string[] = [];
  await counting.run(calls, run);
  return calls;
}
