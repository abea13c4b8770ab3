/** Suppressions (docs/suppressions.md): the list, the categories each recipient opted out of, and which bounces suppress. */
import { AccountBounceSuppressionLookup } from '../adapters/store/account-bounce-suppression';
import { CategoryOptOutRepository } from '../adapters/store/category-opt-outs';
import { SuppressionRepository } from '../adapters/store/suppressions';
import type { Platform } from './platform';

export function buildSuppressions({ config, table }: Pick<Platform, 'config' | 'table'>) {
  return {
    suppressions: new SuppressionRepository(table),
    categoryOptOuts: new CategoryOptOutRepository(table),
    /** Which bounce categories suppress an account's addresses, kept HOT_LOOKUPS_CACHE_MS (the SES events worker). */
    bounceSuppression: new AccountBounceSuppressionLookup(table, config.hotLookupsCacheMs),
  };
}

export type SuppressionServices = ReturnType<typeof buildSuppressions>;
