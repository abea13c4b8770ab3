/**
 * A service event (what webhooks deliver): `{type, created_at, data}` on the wire, plus the routing
 * facts the fan-out needs (account, tenant). Pure.
 */
import { deterministicId, newId } from '../ids';
import type { ServiceEventMessage } from '../messages';
import type { EventType } from './event-types';

/** The webhook events queue's message: its schema is `serviceEventSchema` (shared/domain/messages.ts). */
export type ServiceEvent = ServiceEventMessage;

/** The exact JSON body POSTed to endpoints. */
export function webhookBody(event: ServiceEvent): string {
  return JSON.stringify({ type: event.type, created_at: event.created_at, data: event.data });
}

/**
 * Email events happen once per email and type (sent, delivered, ...): their id is derived from the
 * email, so a duplicate notification yields the same event and is delivered once. Repeatable ones
 * (delivery_delayed) add the occurrence time.
 */
export function emailEventId(emailCreatedAt: string, emailId: string, type: EventType, occurrence?: string): string {
  return deterministicId('evt', Date.parse(emailCreatedAt), `${emailId}:${type}${occurrence ? `:${occurrence}` : ''}`);
}

/** Events that are not tied to one occurrence (test events): a fresh id. */
export function freshEventId(now: Date): string {
  return newId('evt', now.getTime());
}
