/**
 * The DynamoDB calls a piece of code makes through the harness's services (their repositories all send through
 * the table's one client): the command names in order, for tests that hold a use case to its reads and writes.
 */
import { stack } from './stack';

export async function tableCallsOf(run: () => Promise<void>): Promise<string[]> {
  const client = stack().services.table.client;
  const send = client.send;
  const calls: string[] = [];
  client.send = ((command: object, ...rest: unknown[]) => {
    calls.push(command.constructor.name);
    return (send as (...args: unknown[]) => unknown).call(client, command, ...rest);
  }) as typeof send;
  try {
    await run();
  } finally {
    client.send = send;
  }
  return calls;
}
