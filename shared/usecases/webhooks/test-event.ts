/**
 * POST /emails/test: builds the webhook payload of any event type (from a real email when email_id
 * is given, else an example), returns it, and unless `deliver` is false queues it to the subscribed
 * endpoints like a real event. No email is sent.
 */
import * as z from 'zod';
import { idField } from '../../domain/bounds';
import { tenantParam } from '../../domain/tenants/schemas';
import { emailOwner } from '../../domain/emails/email';
import { emailEventData } from '../../domain/webhooks/email-event-data';
import { freshEventId, type ServiceEvent } from '../../domain/webhooks/event';
import { EVENT_TYPES, type EventType } from '../../domain/webhooks/event-types';
import { sampleEventData } from '../../domain/webhooks/sample-data';
import { ValidationError } from '../../domain/errors';
import type { Clock } from '../../ports/clock';
import type { EventPublisher } from '../../ports/events';
import type { EmailRepository } from '../../adapters/store/emails/repository';
import type { Principal } from '../access/principal';
import { requireAccountKey, resolveTenant, type TenantScopeDeps } from '../access/tenant-scope';
import { assertVisible } from '../access/visibility';

export const testEventSchema = z
  .object({
    event: z.enum(EVENT_TYPES, { message: `event must be one of ${EVENT_TYPES.join(', ')}` }),
    email_id: idField('msg', 'email_id', 'an email').optional(),
    deliver: z.boolean().optional(),
    tenant: tenantParam.optional(),
  })
  .strict();

export type TestEventInput = z.infer<typeof testEventSchema>;

export interface TestEventDeps {
  emails: EmailRepository;
  events: EventPublisher;
  tenants: TenantScopeDeps['tenants'];
  clock: Clock;
}

export async function sendTestEvent(deps: TestEventDeps, principal: Principal, input: TestEventInput) {
  // Spec, Authentication 3: POST /emails/test needs a full-access key of the whole account.
  requireAccountKey(principal, 'send test events');
  const named = await resolveTenant(deps, principal, input.tenant);
  const tenant = named?.external_id ?? null;
  const now = deps.clock.now().toISOString();
  const type = input.event as EventType;
  let data: Record<string, unknown>;
  if (input.email_id) {
    if (!type.startsWith('email.') || type === 'email.received') {
      throw new ValidationError(`email_id only applies to email events sent by the service, not ${type}.`, {
        details: { fields: [{ field: 'email_id', message: 'not applicable to this event' }] },
      });
    }
    const stored = await deps.emails.get(input.email_id);
    assertVisible(principal, stored ? emailOwner(stored.email) : null, 'Email', input.email_id);
    data = emailEventData(stored!.email, type);
  } else {
    data = sampleEventData(type, now, named);
  }
  const event: ServiceEvent = { id: freshEventId(deps.clock.now()), type, account_id: principal.account.id, tenant, created_at: now, data };
  const deliver = input.deliver !== false;
  if (deliver) await deps.events.publish([event]);
  return {
    object: 'test_event' as const,
    id: event.id,
    queued: deliver,
    payload: { type: event.type, created_at: event.created_at, data: event.data },
  };
}
