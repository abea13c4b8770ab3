/**
 * The SMTP relay and MX task of the template (AWS::ECS::TaskDefinition, ../template/relay-task.ts) run on
 * the local cloud as ECS would run its container (docs/smtp.md, "How the local cloud runs the task"):
 * a process of its own (./relay-task-process.ts) whose environment is what ECS gives the container:
 *
 * 1. the image's ENV (./relay-task-image.ts, from infra/smtp-relay.Dockerfile);
 * 2. what ECS sets (AWS_REGION, AWS_DEFAULT_REGION, AWS_EXECUTION_ENV=AWS_ECS_FARGATE, the task role's
 *    credentials: here the local keys), and the task definition's Environment, resolved;
 * 3. its Secrets, resolved as ECS resolves them (./relay-task-secrets.ts: the local certificate);
 * 4. what this machine changes, as for the functions (../lambda/function-environment.ts, layer 4: the emulators'
 *    endpoints...), plus the listeners' addresses the local cloud chose (SMTP_HOST/SMTP_PORT,
 *    MX_HOST/MX_PORT: ./relay-task-ports.ts), the greeting name `localhost` (the local certificate's), and
 *    a short close timeout: 2 s unless SMTP_CLOSE_TIMEOUT_S is given to `npm start` (the template's 45 s
 *    would make every local stop wait for idle clients).
 *
 * Its SDK calls are authorized as the task role (./relay-task-runtime.ts).
 */
import { join } from 'node:path';
import { BUNDLE_FILE, PROJECT_ROOT, RELAY_DOCKERFILE } from '#infra/functions';
import { SMTP_RELAY } from '#infra/definitions';
import { MX_ENV } from '#shared/doors/mx/mx-config';
import { SMTP_ENV } from '#shared/doors/smtp/relay-config';
import type { NamedPolicy } from '../../iam/policy';
import type { IamSettings } from '../iam/iam-setup';
import { readRelayImage } from './relay-task-image';
import { withLocalPreloads } from './relay-task-preloads';
import { choosePort } from './relay-task-ports';
import { RelayTaskStartError, startRelayTaskProcess, type RelayTaskProcess, type RelayTaskProcessOptions } from './relay-task-process';
import { resolveTaskSecrets } from './relay-task-secrets';
import { certificate } from '../tls/smtp-relay';
import type { RelayTask } from '../template/relay-task';

export interface LocalRelayTaskOptions {
  task: RelayTask;
  /** The environment the local cloud gives a workload of the template with this template environment, as an ECS container (../lambda/workload-environment.ts). */
  containerEnvironment: (template: Record<string, string>) => Record<string, string>;
  /** The task role's policies. */
  policies: NamedPolicy[];
  iam: IamSettings;
  /** Where the local CA and certificate live (DATA_DIR/smtp-relay). */
  certDir: string;
  host: string;
  ports: { smtp: number; mx: number };
  explicit: { smtp: boolean; mx: boolean };
  log: (message: string) => void;
  startTimeoutMs?: number;
}

export interface ListenerHealth {
  address: string;
  state: 'up' | 'down';
  connections: number;
}

export interface LocalRelayTask {
  pid: number;
  /** `host:port` of the relay and of the MX listener. */
  smtp: string;
  mx: string;
  /** The CA that signed the local certificate (null when `npm start` was given one). */
  caFile: string | null;
  health(): Promise<{ smtp: ListenerHealth; mx: ListenerHealth }>;
  stop(): Promise<void>;
}

/**
 * The variables the local cloud sets for the task itself, over the task definition's: its listeners'
 * addresses (the ports it chose: ./relay-task-ports.ts), the greeting name of the local certificate, and
 * the close timeout (2 s unless the environment says).
 */
function localTaskVariables(host: string, ports: { smtp: number; mx: number }): Record<string, string> {
  return {
    [SMTP_ENV.host]: host,
    [SMTP_ENV.port]: String(ports.smtp),
    [MX_ENV.host]: host,
    [MX_ENV.port]: String(ports.mx),
    [SMTP_ENV.hostname]: 'localhost',
    [SMTP_ENV.closeTimeoutSeconds]: process.env[SMTP_ENV.closeTimeoutSeconds]?.trim() || '2',
  };
}

/**
 * Their names. They stay out of stack.json's `env`: scripts and tests copy that into their own
 * environment, and a stack they start would then take the container's SMTP_PORT 2587 as asked for.
 */
export const RELAY_TASK_LOCAL_VARIABLES: readonly string[] = Object.keys(localTaskVariables('', { smtp: 0, mx: 0 }));

/** The task definition's environment without RELAY_TASK_LOCAL_VARIABLES. */
export function relayTaskSharedEnvironment(environment: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(environment).filter(([name]) => !RELAY_TASK_LOCAL_VARIABLES.includes(name)));
}

/** Tries with other free ports when a port the local cloud chose was taken before the task listened. */
const START_ATTEMPTS = 3;

export async function startLocalRelayTask(options: LocalRelayTaskOptions): Promise<LocalRelayTask> {
  const { template, caFile } = await taskTemplateEnvironment(options);
  const { host, log } = options;
  for (let attempt = 1; ; attempt++) {
    const { smtpPort, mxPort } = await chooseTaskPorts(options);
    const env = withLocalPreloads({
      ...options.containerEnvironment(template),
      ...localTaskVariables(host, { smtp: smtpPort, mx: mxPort }),
    });
    let running: RelayTaskProcess;
    const started = Date.now();
    try {
      running = await startRelayTaskProcess(relayTaskProcessOptions(options, env, smtpPort, mxPort));
    } catch (error) {
      const raced =
        error instanceof RelayTaskStartError && /EADDRINUSE/.test(error.output) && !options.explicit.smtp && !options.explicit.mx;
      if (!raced || attempt >= START_ATTEMPTS) throw error;
      log(`SMTP relay task: a port chosen for it was taken before it listened; starting it again on other free ports`);
      continue;
    }
    log(`SMTP relay task (pid ${running.pid}) ready in ${Date.now() - started} ms: SMTP ${host}:${smtpPort}, MX ${host}:${mxPort}`);
    return localRelayTask(running, host, smtpPort, mxPort, caFile);
  }
}

/**
 * The container's environment from the image and the task definition (layers 1 to 3 above: the image's ENV,
 * the task definition's Environment, its Secrets resolved), and the local CA's file.
 */
async function taskTemplateEnvironment(
  options: LocalRelayTaskOptions,
): Promise<{ template: Record<string, string>; caFile: string | null }> {
  const image = readRelayImage(join(PROJECT_ROOT, RELAY_DOCKERFILE));
  if (image.script !== BUNDLE_FILE)
    throw new Error(`${RELAY_DOCKERFILE}: CMD runs ${image.script}, the local cloud knows the relay's bundle as ${BUNDLE_FILE}`);
  const { key, cert, caFile } = await certificate(options.certDir);
  const template = { ...image.env, ...options.task.environment, ...resolveTaskSecrets(options.task.secrets, { key, cert }) };
  return { template, caFile };
}

/** The SMTP relay's port, then the MX listener's (./relay-task-ports.ts). */
async function chooseTaskPorts(options: LocalRelayTaskOptions): Promise<{ smtpPort: number; mxPort: number }> {
  const { host, log } = options;
  const smtpPort = await choosePort(
    { port: options.ports.smtp, explicit: options.explicit.smtp, host, name: 'SMTP relay', variable: SMTP_ENV.port },
    log,
  );
  const mxPort = await choosePort({ port: options.ports.mx, explicit: options.explicit.mx, host, name: 'MX', variable: MX_ENV.port }, log);
  return { smtpPort, mxPort };
}

/** What the task's process is started with: the product's entry, the container's environment, the task role, its listeners. */
function relayTaskProcessOptions(
  options: LocalRelayTaskOptions,
  env: Record<string, string>,
  smtpPort: number,
  mxPort: number,
): RelayTaskProcessOptions {
  const { host, log } = options;
  return {
    entry: join(PROJECT_ROOT, SMTP_RELAY.entry),
    env,
    cwd: PROJECT_ROOT,
    principal: { functionName: SMTP_RELAY.name, roleArn: options.task.roleArn, policies: options.policies },
    iam: options.iam,
    stopTimeoutSeconds: options.task.stopTimeoutSeconds,
    listeners: [
      { host, port: smtpPort },
      { host, port: mxPort },
    ],
    startTimeoutMs: options.startTimeoutMs ?? 60_000,
    log,
  };
}

/** The started task, as the local cloud reports and stops it. */
function localRelayTask(running: RelayTaskProcess, host: string, smtpPort: number, mxPort: number, caFile: string | null): LocalRelayTask {
  const listenerHealth = (port: number, connections: Record<string, number>): ListenerHealth => ({
    address: `${host}:${port}`,
    state: running.up() ? 'up' : 'down',
    connections: connections[String(port)] ?? 0,
  });
  return {
    pid: running.pid,
    smtp: `${host}:${smtpPort}`,
    mx: `${host}:${mxPort}`,
    caFile,
    health: async () => {
      const connections = await running.connections();
      return { smtp: listenerHealth(smtpPort, connections), mx: listenerHealth(mxPort, connections) };
    },
    stop: () => running.stop(),
  };
}
