/**
 * Where the reconciler's SES tenants sweep is (shared/usecases/reconcile-ses-tenants.ts): one item with
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
    return { sesToken: typeof item.ses_token === 'string' ? item.ses_token : null, aliasesAfter: item.aliases_after ?? null };
  }

  /** Records where the next sweep starts. */
  async save(state: SesTenantSweepState): Promise<void> {
    const sets: string[] = [];
    const removes: string[] = [];
    const values: Record<string, unknown> = {};
    if (state.sesToken === null) removes.push('ses_token');
    else {
      sets.push('ses_token = :token');
      values[':token'] = state.sesToken;
    }
    if (state.aliasesAfter === null) removes.push('aliases_after');
    else {
      sets.push('aliases_after = :after');
      values[':after'] = state.aliasesAfter;
    }
    await updateIfCondition(this.table, {
      Key: keys.sesTenantSweep(),
      UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim(),
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      ReturnValues: 'NONE',
    });
  }
}
