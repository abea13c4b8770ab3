/**
 * DynamoDB Local's JVM compiles for a quick start by default (C1 only) and, asked to serve a long run
 * (LOCAL_DYNAMODB_JIT=long-running, as the test suite's shared DynamoDB Locals are), with C2 as well:
 * the flags Java is actually started with, read from its command line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { startDynamoDbLocal, type DynamoDbJit } from '#localstack/cloud/dynamodb';

jest.setTimeout(90_000);

/** The arguments of the Java process listening on `port` (DynamoDB Local's `-port <port>`). */
function javaArguments(port: number): string[] {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (/(^|\/)java$/.test(args[0] ?? '') && args.includes('-port') && args[args.indexOf('-port') + 1] === String(port)) return args;
  }
  throw new Error(`no java process with -port ${port}`);
}

it.each<[DynamoDbJit | undefined, boolean]>([
  [undefined, true],
  ['quick-start', true],
  ['long-running', false],
])('jit %s: C1 only is %s', async (jit, c1Only) => {
  const dynamo = await startDynamoDbLocal(jit ? { jit } : {});
  try {
    const args = javaArguments(dynamo.port);
    expect(args).toContain('-XX:+UseSerialGC');
    expect(args.includes('-XX:TieredStopAtLevel=1')).toBe(c1Only);
  } finally {
    await dynamo.stop();
  }
});
