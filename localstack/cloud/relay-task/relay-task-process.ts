/**
 * The relay task as a process of its own, run the way ECS runs a task's container (no Docker here): the
 * command of the image (./relay-task-image.ts), exactly the container's environment (built by the caller,
 * ./relay-task.ts), and ECS's stop: SIGTERM, then SIGKILL if the process has not exited after the
 * container's StopTimeout (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ContainerDefinition.html,
 * `stopTimeout`; https://aws.amazon.com/blogs/containers/graceful-shutdowns-with-ecs/).
 *
 * The program is the product's source entry (functions/smtp-relay/main.ts) run through tsx, as the whole
 * local cloud runs TypeScript, rather than the image's esbuild bundle: no build step before `npm start`,
 * and the process shares the product's modules with its local-cloud side (./relay-task-runtime.ts), which
 * is how the local clock reaches shared/adapters/clock.ts (the bundle has its own copy of that module). What the
 * bundle adds over the source is covered by test/infra (bundle contents and size).
 *
 * Ready: both listeners answer the SMTP greeting (./relay-task-readiness.ts), and the task saw those
 * connections (so the greeting is not another process's on the same port). A process that exits first
 * fails the start with its output (the entry prints why it could not start). Its stdout and stderr go to
 * the local cloud's log, line by line, as `smtp-relay: ...` (CloudWatch Logs on AWS).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Principal } from '../../iam/caller';
import type { IamSettings } from '../iam/iam-setup';
import { clockOffsetMs, onClockChange } from '../stack/local-clock';
import type { FromRelayTask, ToRelayTask } from './relay-task-protocol';
import { relayTaskEntry } from '../program-entries';
import { greets } from './relay-task-readiness';

export interface RelayTaskProcessOptions {
  /** The product's entry (absolute path). */
  entry: string;
  /** The container's whole environment. */
  env: Record<string, string>;
  cwd: string;
  principal: Principal;
  iam: IamSettings;
  stopTimeoutSeconds: number;
  /** The listeners the task must open (from its SMTP_HOST/SMTP_PORT, MX_HOST/MX_PORT). */
  listeners: { host: string; port: number }[];
  startTimeoutMs: number;
  log: (message: string) => void;
}

export interface RelayTaskProcess {
  pid: number;
  /** Running and not stopping. */
  up(): boolean;
  /** Open connections by listening port (empty when the process does not answer within 2 s). */
  connections(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** Thrown when the process exits before it is ready; `output` is what it printed. */
export class RelayTaskStartError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
    this.name = 'RelayTaskStartError';
  }
}

const OUTPUT_KEPT = 20_000;

export function startRelayTaskProcess(options: RelayTaskProcessOptions): Promise<RelayTaskProcess> {
  const child = spawnRelayTask(options);
  const output = followOutput(child, options.log);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  let running = true;
  let stopping = false;
  const send = (message: ToRelayTask) => {
    if (child.connected) child.send(message);
  };
  const stopFollowingClock = onClockChange((offsetMs) => send({ type: 'clock', offsetMs }));
  void exited.then(({ code, signal }) => {
    running = false;
    stopFollowingClock();
    options.log(
      `SMTP relay task (pid ${child.pid}) exited with ${signal ? `signal ${signal}` : `code ${code}`}${stopping ? '' : ' unexpectedly: /health reports it down (ECS would start a new task; restart the local cloud)'}`,
    );
  });
  const healthWaiters = new Map<number, (connections: Record<string, number>) => void>();
  let nextId = 0;
  child.on('message', (message: FromRelayTask) => {
    if (message.type === 'log') options.log(message.message);
    else if (message.type === 'health') {
      healthWaiters.get(message.id)?.(message.connections);
      healthWaiters.delete(message.id);
    }
  });
  child.on('error', (error) => options.log(`SMTP relay task: ${error.message}`));
  send({ type: 'start', entry: options.entry, principal: options.principal, iam: options.iam, clockOffsetMs: clockOffsetMs() });

  const task: RelayTaskProcess = {
    pid: child.pid!,
    up: () => running && !stopping,
    connections: () =>
      new Promise((resolveConnections) => {
        if (!running) return resolveConnections({});
        const id = ++nextId;
        const timer = setTimeout(() => {
          healthWaiters.delete(id);
          resolveConnections({});
        }, 2000);
        healthWaiters.set(id, (connections) => {
          clearTimeout(timer);
          resolveConnections(connections);
        });
        send({ type: 'health', id });
      }),
    stop: () => stopProcess(child, exited, options.stopTimeoutSeconds, () => (stopping = true)),
  };
  return waitUntilReady(task, child, exited, options, output);
}

/** The task's process, started with the container's environment and an IPC channel to the local cloud. */
function spawnRelayTask(options: RelayTaskProcessOptions): ChildProcess {
  // Its own process group: a terminal's Ctrl-C reaches the local cloud, which stops the task in its turn
  // (SIGTERM, as ECS does) instead of the task stopping on its own first; the IPC channel still takes it
  // down with the local cloud (./relay-task-runtime.ts exits when the channel closes).
  return spawn(process.execPath, [relayTaskEntry()], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
  });
}

/** Logs the task's stdout and stderr line by line as `smtp-relay: ...`; returns what it printed last (OUTPUT_KEPT characters). */
function followOutput(child: ChildProcess, log: (message: string) => void): () => string {
  let output = '';
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      output = `${output}${line}\n`.slice(-OUTPUT_KEPT);
      log(`smtp-relay: ${line}`);
    });
  }
  return () => output;
}

/** ECS's stop: SIGTERM, SIGKILL after the stop timeout; resolves when the process has exited. */
async function stopProcess(
  child: ChildProcess,
  exited: Promise<unknown>,
  stopTimeoutSeconds: number,
  markStopping: () => void,
): Promise<void> {
  markStopping();
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const kill = setTimeout(() => child.kill('SIGKILL'), stopTimeoutSeconds * 1000);
  await exited;
  clearTimeout(kill);
}

async function waitUntilReady(
  task: RelayTaskProcess,
  child: ChildProcess,
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
  options: RelayTaskProcessOptions,
  output: () => string,
): Promise<RelayTaskProcess> {
  const deadline = Date.now() + options.startTimeoutMs;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void exited.then((result) => (exit = result));
  const pending = new Set(options.listeners.map(({ host, port }) => `${host}:${port}`));
  while (pending.size > 0) {
    if (exit)
      throw new RelayTaskStartError(
        `the SMTP relay task exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`} before listening on ${[...pending].join(' and ')}:\n${output().trim() || '(no output)'}`,
        output(),
      );
    if (Date.now() > deadline) {
      await task.stop();
      throw new RelayTaskStartError(
        `the SMTP relay task did not listen on ${[...pending].join(' and ')} within ${options.startTimeoutMs} ms:\n${output().trim() || '(no output)'}`,
        output(),
      );
    }
    for (const { host, port } of options.listeners) {
      // The greeting must come from the task (it saw the connection), not from another process on the port.
      if (pending.has(`${host}:${port}`) && (await greets(host, port)) && String(port) in (await task.connections()))
        pending.delete(`${host}:${port}`);
    }
    if (pending.size > 0) await Promise.race([new Promise((resolveLater) => setTimeout(resolveLater, 100)), exited]);
  }
  if (!child.connected) throw new RelayTaskStartError('the SMTP relay task lost its channel to the local cloud while starting', output());
  return task;
}
