/**
 * Where the reconciler's SES tenants sweep is (shared/usecases/ses-tenants/reconcile-ses-tenants.ts): one item with
 * its place in SES's tenant list (ListTenants' NextToken), its place in ours (the tenant id aliases'
 * index) and when it may run next. `claim` is a conditional write on that time, so of the reconciler
 * passes running at once (or within the interval) exactly one sweeps.
 */
import { keys } from './keys';
import { updateIfCondition, type Table } from './table';

export interface SesTenantSweepState {
  /** ListTenants' NextToken for the next page (null: start from the first). */
  sesToken: string | null;
  /** The aliases' index position after the last page read (null: start from the first). */
  aliasesAfter: Record<string, unknown> | null;
}

export class SesTenantSweepRepository {
  constructor(private readonly table: Table) {}

  /** Takes the sweep if it is due at `now` (epoch ms), making it due again at `next`; null when it is not due. */
  async claim(now: number, next: number): Promise<SesTenantSweepState | null> {
    const item = await updateIfCondition(this.table, {
      Key: keys.sesTenantSweep(),
      UpdateExpression: 'SET next_run_at = :next',
      ConditionExpression: 'attribute_not_exists(next_run_at) OR next_run_at <= :now',
      ExpressionAttributeValues: { ':now': now, ':next': next },
    });
    if (!item) return null;
    return {
      sesToken: typeof item.ses_token === 'string' ? item.ses_token : null,
      aliasesAfter:
        typeof item.aliases_after === 'object' && item.aliases_after !== null ? (item.aliases_after as Record<string, unknown>) : null,
    };
  }

  /** Records where the next sweep starts (null values stored as such: claim reads them back as null). */
  async save(state: SesTenantSweepState): Promise<void> {
    await updateIfCondition(this.table, {
      Key: keys.sesTenantSweep(),
      UpdateExpression: 'SET ses_token = :token, aliases_after = :after',
      ExpressionAttributeValues: { ':token': state.sesToken, ':after': state.aliasesAfter },
      ReturnValues: 'NONE',
    });
  }
}
