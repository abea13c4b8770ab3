/** Automations (docs/automations.md): definitions (the active ones by trigger or cancel event, cached) and runs. */
import { AutomationRepository } from '../adapters/store/automations';
import { RunRepository } from '../adapters/store/runs';
import { TtlCache } from '../lib/ttl-cache';
import type { Platform } from './platform';

export function buildAutomations({ config, table }: Pick<Platform, 'config' | 'table'>) {
  return {
    // The active automations of an account's event kept for HOT_LOOKUPS_CACHE_MS (1,000 events' partitions).
    automations: new AutomationRepository(table, new TtlCache(config.hotLookupsCacheMs, 1_000)),
    /** Automation runs: each transition one conditional write (shared/adapters/store/runs.ts). */
    runs: new RunRepository(table, config.recovery),
  };
}

export type AutomationServices = ReturnType<typeof buildAutomations>;
