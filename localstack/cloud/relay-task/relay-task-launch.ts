/**
 * Starting the template's SMTP relay and MX task: a process of its own, as ECS runs the container, with
 * the task definition's environment and secrets, its role for IAM, and ECS's stop (./relay-task.ts,
 * docs/smtp.md). It starts alongside the workers thread (each takes about a second); the start awaits it
 * after, and its failure fails the start.
 */
import { join } from 'node:path';
import type { NamedPolicy } from '../../iam/policy';
import type { IamSettings } from '../iam/iam-setup';
import { startLocalRelayTask, type LocalRelayTask } from './relay-task';
import type { StartContext } from '../stack/start-context';
import type { LocalDeployment } from '../template/deploy';
import type { RelayTask } from '../template/relay-task';
import type { WorkloadEnvironmentOf } from '../lambda/workload-environment';

export interface RelayTaskLaunch {
  task: RelayTask;
  starting: Promise<LocalRelayTask>;
}

export function launchRelayTask(
  ctx: StartContext,
  deployment: LocalDeployment,
  environmentOf: WorkloadEnvironmentOf,
  policiesByRole: Map<string, NamedPolicy[]>,
  iam: IamSettings,
): RelayTaskLaunch {
  const { options } = ctx;
  const task = deployment.relayTask;
  if (!task) throw new Error('the template has no SMTP relay task');
  const starting = startLocalRelayTask({
    task,
    containerEnvironment: (template) => environmentOf(template, { container: 'fargate' }),
    policies: policiesByRole.get(task.roleLogicalId)!,
    iam,
    certDir: join(ctx.dataDir, 'smtp-relay'),
    host: ctx.host,
    ports: { smtp: options.ports?.smtp ?? 0, mx: options.ports?.mx ?? 0 },
    explicit: { smtp: options.smtpPortExplicit ?? false, mx: options.mxPortExplicit ?? false },
    log: ctx.log,
  });
  // Awaited after the workers thread has started: until then, a failure is no unhandled rejection.
  starting.catch(() => undefined);
  ctx.stops.add(async () => (await starting.catch(() => undefined))?.stop());
  return { task, starting };
}
