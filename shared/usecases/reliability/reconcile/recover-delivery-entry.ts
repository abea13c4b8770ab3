/**
 * A DELIVERY entry of the due index: the webhook delivery read, the recovery policy's action
 * (shared/domain/reliability/recovery-policy.ts) carried out: a pending delivery past due has its next
 * attempt put on the deliveries queue and its due time moved; one still waiting only its due time moved;
 * a finished one leaves the index.
 */
import type { RecoveryBounds } from '#shared/domain/reliability/bounds';
import { recoverDelivery } from '#shared/domain/reliability/recovery-policy';
import type { WebhookDeliveryQueue } from '#shared/ports/queues';
import type { DueEntryOf } from '#shared/adapters/store/due-work';
import type { WebhookDeliveryRepository } from '#shared/adapters/store/webhook-deliveries';
import type { RecoveryPass } from './recovery-pass';

export interface DeliveryRecoveryDeps {
  webhookDeliveries: Pick<WebhookDeliveryRepository, 'get' | 'postponeDue' | 'clearDue'>;
  webhookDeliveryQueue: WebhookDeliveryQueue;
  bounds: RecoveryBounds;
}

export async function recoverDeliveryEntry(entry: DueEntryOf<'DELIVERY'>, deps: DeliveryRecoveryDeps, pass: RecoveryPass): Promise<void> {
  const { webhookId, deliveryId } = entry;
  const delivery = await deps.webhookDeliveries.get(webhookId, deliveryId);
  if (!delivery) return;
  const action = recoverDelivery(delivery, pass.now, deps.bounds);
  switch (action.kind) {
    case 'clear':
      pass.count('cleared');
      await deps.webhookDeliveries.clearDue(webhookId, deliveryId);
      return;
    case 'wait':
      pass.count('waiting');
      await deps.webhookDeliveries.postponeDue(webhookId, deliveryId, action.dueAt);
      return;
    case 'redrive':
      await deps.webhookDeliveryQueue.enqueue(action.message, 0);
      await deps.webhookDeliveries.postponeDue(webhookId, deliveryId, action.dueAt);
      pass.count('redriven_webhooks');
  }
}
