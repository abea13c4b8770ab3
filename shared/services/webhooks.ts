/** Webhooks (docs/webhooks.md): the endpoints, their deliveries, and the SSRF policy of their URLs. */
import { WebhookDeliveryRepository } from '../adapters/store/webhook-deliveries';
import { WebhookRepository } from '../adapters/store/webhooks';
import type { Platform } from './platform';

export function buildWebhooks({ config, table }: Pick<Platform, 'config' | 'table'>) {
  return {
    webhooks: new WebhookRepository(table),
    webhookDeliveries: new WebhookDeliveryRepository(table, config.recovery),
    /** Public addresses only; loopback too where WEBHOOK_ALLOW_LOOPBACK is set (local cloud). */
    webhookPolicy: { allowLoopback: config.webhookAllowLoopback },
  };
}

export type WebhookServices = ReturnType<typeof buildWebhooks>;
