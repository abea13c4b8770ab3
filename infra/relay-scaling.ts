/**
 * Context `smtpRelayMaxTasks` (`cdk deploy -c smtpRelayMaxTasks=30`): the most tasks the SMTP relay and MX
 * service scales out to (SMTP_RELAY.autoscaling: from minTasks, default maxTasks). A task of 0.5 vCPU takes
 * about 35-50 messages a second (an estimate from the relay's ~14 ms of CPU per message, docs/benchmarks.md "SMTP relay"; see
 * docs/deploy.md, "Throughput ceilings").
 */
import { SMTP_RELAY } from './definitions';

export const RELAY_MAX_TASKS_CONTEXT = 'smtpRelayMaxTasks';

/** The service's maximum task count: the context's, or the definition's default; throws on a bad value. */
export function relayMaxTasks(context: unknown): number {
  const { minTasks, maxTasks, maxTasksLimit } = SMTP_RELAY.autoscaling;
  if (context === undefined || context === '') return maxTasks;
  const count = Number(context);
  if (!Number.isInteger(count) || count < minTasks || count > maxTasksLimit) {
    throw new Error(
      `context ${RELAY_MAX_TASKS_CONTEXT} must be a whole number from ${minTasks} (the tasks always running) to ${maxTasksLimit}, got '${String(context)}'`,
    );
  }
  return count;
}
