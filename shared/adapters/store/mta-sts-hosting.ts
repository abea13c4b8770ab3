/**
 * Hosted MTA-STS policies (docs/deliverability.md, "Hosted MTA-STS policy"): one item per policy domain,
 * `MTASTS#<policy domain>` / `HOSTING` (shared/domain/domains/mta-sts/hosting.ts), read by the MTA-STS
 * function by the host it is asked for, and carrying its next step in the due index's own partition (GSI2
 * `MTASTSDUE` / `<due ISO>#<policy domain>`), which the domain-health task reads. Every write is conditional
 * on the stored `version`: a PUT, a DELETE and a task step racing each other apply one at a time. A policy's
 * creation takes a place of its account's bound (counter `ACCOUNT#<id>` / `COUNTER#MTA_STS`, ./counters.ts) in
 * the same transaction, and its removal gives it back in the same transaction as the item's deletion.
 */
import { storedHostingSchema, type StoredHosting } from '../../domain/domains/mta-sts/hosting';
import { HostedItems, hostDueKey, type StoredHostState } from './hosted-hosts';
import { keys } from './keys';
import type { Table } from './table';

/** The account's counter of hosted policies (./counters.ts). */
const COUNTER = 'MTA_STS';

export type StoredHostingState = StoredHostState<StoredHosting>;

export const hostingDueKey = (policyDomain: string, at: Date) => hostDueKey(keys.mtaStsDue(), policyDomain, at);

export class MtaStsHostingRepository extends HostedItems<StoredHosting> {
  constructor(table: Table) {
    super(table, {
      type: 'mta_sts_hosting',
      schema: storedHostingSchema,
      keyOf: (hosting) => hosting.policy_domain,
      itemKey: (policyDomain) => keys.mtaStsHosting(policyDomain),
      duePartition: keys.mtaStsDue(),
    });
  }

  /**
   * Stores a new hosting (version 1, `plan_slot`) if none is stored for its policy domain and its account has
   * fewer than `limit` policies, both in one transaction: `saved`; `conflict` when another write came first
   * (the item exists, or a concurrent transaction on the same items: read again); `limit` at the bound.
   */
  create(hosting: StoredHosting, nextStepAt: Date, limit: number): Promise<'saved' | 'conflict' | 'limit'> {
    if (!hosting.plan_slot) throw new Error('a new hosting takes a place (plan_slot)');
    return this.createTakingSlot(hosting, nextStepAt, COUNTER, limit);
  }

  /**
   * Deletes the item if still at its `version`, giving its account's place back in the same transaction when it
   * took one (`plan_slot`): `deleted`, or `conflict`.
   */
  remove(hosting: StoredHosting): Promise<'deleted' | 'conflict'> {
    return hosting.plan_slot ? this.removeFreeingSlot(hosting, COUNTER) : this.deleteItem(hosting);
  }
}
