/** The event types the service emits (spec, Events), the ones a webhook endpoint can subscribe to. */
export const EVENT_TYPES = [
  'email.sent',
  'email.delivered',
  'email.delivery_delayed',
  'email.bounced',
  'email.complained',
  'email.opened',
  'email.clicked',
  'email.failed',
  'email.suppressed',
  'email.scheduled',
  'email.received',
  'contact.unsubscribed',
  'automation.started',
  'automation.step_completed',
  'automation.completed',
  'automation.failed',
  'tenant.paused',
  'tenant.resumed',
  'domain.health_changed',
  'account.paused',
  'account.resumed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** Events an endpoint filtered to tenants never receives (spec: only email events of those tenants). */
export function isTenantScopedType(type: EventType): boolean {
  return type.startsWith('email.') && type !== 'email.received';
}
