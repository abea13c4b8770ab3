/**
 * Starts a local cloud (`npm start`'s entry) as a child process, the way a developer does, and waits for
 * its ready line. Used by the Jest global setup and by tests that need their own stack (restarts).
 *
 * Its scheduled tasks run every 10 s, the reconciler every 60 s, unless `env` says otherwise
 * (LOCAL_TASK_PERIOD_MS; '' for the template's 2 s): a reconciler pass queries the 32 shards of the due index
 * and the 8 of raw inbound messages (at 10 s, 4 queries a second: some 1.5 s of DynamoDB Local's CPU a
 * minute for each stack), and no test's own stack waits for its timer (one that waits asks for a pass:
 * harness/tasks.ts). The shared stack, the kill test's, a lost firing's and the docs' (a reader's `npm start`)
 * set their own.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { OWN_STACKS_DYNAMODB_ENV } from '../../support/unit-dynamodb';

export interface SpawnedStack {
  apiUrl: string;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL the whole process group (Java, threads and all), as a crash or an OOM kill would; needs `detached`. */
  killGroup(): Promise<void>;
}

const ROOT = resolve(__dirname, '..', '..', '..');

/** Where the global setup's DynamoDB Local for the test files' own stacks answers (./global-setup.ts). */
export { OWN_STACKS_DYNAMODB_ENV };

/**
 * An in-memory stack uses the global setup's DynamoDB Local when there is one (a Jest run with the
 * integration project), under a stack name of its own (its tables `Mailservice-<8 hex>-...`, deleted when it
 * stops: docs/local-cloud/dynamodb.md); `ownDynamoDb` (the shared stack, a test of DynamoDB Local's own
 * process) or a stack on disk starts its own.
 */
function sharedDynamoEnv(options: { inMemory: boolean; ownDynamoDb?: boolean }): Record<string, string> {
  const endpoint = process.env[OWN_STACKS_DYNAMODB_ENV];
  if (!options.inMemory || options.ownDynamoDb || !endpoint) return {};
  return { LOCAL_DYNAMODB_ENDPOINT: endpoint, LOCAL_STACK_NAME: `Mailservice-${randomBytes(4).toString('hex')}` };
}

/**
 * The Node flags `npm start` runs the local cloud with (package.json's start script, between `node` and the
 * launcher): a bench that measures the stack as a developer runs it passes them as `nodeArgs`.
 */
export function npmStartNodeArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const flags = /\bnode((?:\s+--?[\w-]+(?:=\S+)?)*)\s+localstack\/launch\.cjs\b/.exec(scripts.start ?? '');
  if (!flags) throw new Error(`package.json's start script does not run localstack/launch.cjs with node: ${scripts.start}`);
  return flags[1]!.trim().split(/\s+/).filter(Boolean);
}

export function spawnStack(options: {
  dataDir: string;
  inMemory: boolean;
  ownDynamoDb?: boolean;
  /** Node's flags before the launcher (`npmStartNodeArgs()` for a stack as `npm start` runs it); none by default. */
  nodeArgs?: string[];
  env?: Record<string, string>;
  timeoutMs?: number;
  detached?: boolean;
}): Promise<SpawnedStack> {
  // As `npm start` runs it: its bundles (localstack/launch.cjs), built by the first stack of a run.
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), join(ROOT, 'localstack', 'launch.cjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: options.dataDir,
      DATA_IN_MEMORY: options.inMemory ? '1' : '0',
      STOP_ON_STDIN_CLOSE: '1',
      // TEST_STACK_LOG_LEVEL=error (with TEST_STACK_LOG_FILE=<path>) shows what the functions log, for a failure's cause.
      LOG_LEVEL: process.env.TEST_STACK_LOG_LEVEL ?? 'silent',
      LOCAL_TASK_PERIOD_MS: '10000,reconciler=60000',
      LOCAL_DYNAMODB_ENDPOINT: '',
      LOCAL_STACK_NAME: '',
      ...sharedDynamoEnv(options),
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group, so a kill test can SIGKILL everything it started at once.
    detached: options.detached ?? false,
  });
  let out = '';
  const output = () => out;
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const stop = async (signal: NodeJS.Signals = 'SIGINT') => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill(signal);
    return exited;
  };
  const killGroup = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    await exited;
  };
  return new Promise((resolveStack, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`local cloud did not start within ${options.timeoutMs ?? 60000} ms:\n${out}`));
    }, options.timeoutMs ?? 60_000);
    const collect = (chunk: Buffer) => {
      out += chunk.toString();
    };
    // The ready line is looked for until it came: a stack that logs (LOG_LEVEL=info) writes MBs after it.
    const onReady = () => {
      const ready = /Ready in \d+ ms: (\S+)/.exec(out);
      if (!ready) return;
      child.stdout!.off('data', onReady);
      clearTimeout(timer);
      resolveStack({ apiUrl: ready[1]!, dataDir: options.dataDir, child, output, stop, killGroup });
    };
    child.stdout!.on('data', collect);
    child.stdout!.on('data', onReady);
    child.stderr!.on('data', collect);
    const logFile = process.env.TEST_STACK_LOG_FILE;
    if (logFile) {
      child.stdout!.on('data', (chunk: Buffer) => appendFileSync(logFile, chunk));
      child.stderr!.on('data', (chunk: Buffer) => appendFileSync(logFile, chunk));
    }
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`local cloud exited with ${code} before it was ready:\n${out}`));
    });
  });
}
