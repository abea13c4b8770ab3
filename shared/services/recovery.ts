/** The reconciler's inputs: past-due unfinished work, and where its sweep of SES tenants is. */
import { DueWorkIndex } from '../adapters/store/due-work';
import { SesTenantSweepRepository } from '../adapters/store/ses-tenant-sweep';
import type { Platform } from './platform';

export function buildRecovery({ table }: Pick<Platform, 'table'>) {
  return { dueWork: new DueWorkIndex(table), sesTenantSweep: new SesTenantSweepRepository(table) };
}

export type RecoveryServices = ReturnType<typeof buildRecovery>;
