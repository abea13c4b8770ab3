/** Tenants (docs/tenants.md): the tenants, their scheduled emails (a deletion cancels them) and their day counters. */
import { TenantScheduledRepository } from '../adapters/store/tenant-scheduled';
import { TenantStatsRepository } from '../adapters/store/tenant-stats';
import { TenantRepository } from '../adapters/store/tenants';
import type { Platform } from './platform';

export function buildTenants({ table }: Pick<Platform, 'table'>) {
  return {
    tenants: new TenantRepository(table),
    tenantScheduled: new TenantScheduledRepository(table),
    tenantStats: new TenantStatsRepository(table),
  };
}

export type TenantServices = ReturnType<typeof buildTenants>;
