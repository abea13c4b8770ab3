/** Usage (docs/api.md, "Plans and limits"): the plan counters sends are held to, and the deferred counts the outbox relay adds. */
import { DeferredUsageCounters } from '../adapters/store/deferred-usage';
import { UsageLedger } from '../adapters/store/usage';
import type { Platform } from './platform';

export function buildUsage({ table }: Pick<Platform, 'table'>) {
  return {
    usage: new UsageLedger(table),
    /** What the outbox relay adds per stream batch (the uncapped counters: shared/adapters/store/deferred-usage.ts). */
    deferredUsage: new DeferredUsageCounters(table),
  };
}

export type UsageServices = ReturnType<typeof buildUsage>;
