/**
 * The queue messages: one zod schema per queue body, the single source of their types (`z.output`).
 * Workers parse each record with the queue's schema through `forEachRecord` and receive the typed
 * message; a body that does not parse fails its record alone (it ends in the queue's DLQ after
 * maxReceiveCount). Unknown keys are dropped. Producers' ports (shared/ports/queues.ts, events.ts) take the same types:
 * every message they build is complete, and a parsed message parses again to itself. Pure.
 */
import * as z from 'zod';
import { isId } from './ids';
import { authenticationChecksSchema, type AuthenticationChecks } from './inbound/authentication';
import { EVENT_TYPES } from './webhooks/event-types';

/**
 * Send queue (`QUEUES.send`): `{email_id}` from the outbox relay, plus `schedule_version` when an
 * EventBridge schedule fired it (the worker claims the email only while it is scheduled with that version).
 */
export const sendMessageSchema = z.object({
  email_id: z.string().refine((id) => isId('msg', id), 'not an email id'),
  schedule_version: z.int().optional(),
  /** A held send's slot in SES's send rate (epoch ms), reserved before it was put back (usecases/send/pace.ts). */
  paced_at: z.number().optional(),
  /** When SES's account state (pause, suspension, daily quota) first held the email (epoch ms): bounds the hold. */
  held_since: z.number().optional(),
});
export type SendMessage = z.output<typeof sendMessageSchema>;

/**
 * Webhook events queue (`QUEUES.webhookEvents`): a service event, what webhooks deliver. `{type,
 * created_at, data}` is the wire body POSTed to endpoints; `id` is its `webhook-id`; account and tenant
 * are the routing facts of the fan-out.
 */
export const serviceEventSchema = z.object({
  /** `evt_<ulid>`; also the `webhook-id` receivers can de-duplicate on. */
  id: z.string(),
  type: z.enum(EVENT_TYPES),
  account_id: z.string(),
  /** Tenant external_id for tenant sends, else null (tenant-filtered endpoints only get theirs). */
  tenant: z.string().nullable().default(null),
  created_at: z.string(),
  data: z.record(z.string(), z.unknown()),
  /** Only these endpoints (an inbound route's choice: shared/domain/domains/inbound-routes.ts); absent: every subscribed one. */
  webhook_ids: z.array(z.string()).optional(),
});
export type ServiceEventMessage = z.output<typeof serviceEventSchema>;

/** Webhook deliveries queue (`QUEUES.webhookDeliveries`): one attempt of one delivery. */
export const webhookDeliveryMessageSchema = z.object({
  webhook_id: z.string(),
  delivery_id: z.string(),
  /** 1-based; an attempt the delivery already recorded is skipped (a duplicate message). */
  attempt: z.int().min(1),
  /** Attempts made before a replay: retries are counted from there, so a replay gets the full schedule. */
  retry_base: z.int().min(0).optional(),
});
export type WebhookDeliveryMessage = z.output<typeof webhookDeliveryMessageSchema>;

/**
 * Automation steps queue (`QUEUES.automationSteps`): the step at `step_index` of a run is due. From the
 * automation outbox (a run written with a pending step), or with `wake` from the step's one-time
 * schedule or the reconciler (a delay ended, a wait timed out). The worker claims the step with a
 * conditional write, so a duplicate (redelivery, a double firing) does nothing.
 */
export const automationStepMessageSchema = z.object({
  run_id: z.string().refine((id) => isId('run', id), 'not a run id'),
  step_index: z.int().min(0),
  wake: z.boolean().optional(),
});
export type AutomationStepMessage = z.output<typeof automationStepMessageSchema>;

/** SNS's envelope around a notification (SNS -> SQS without raw message delivery). */
export const snsNotificationSchema = z.looseObject({
  Type: z.literal('Notification'),
  Message: z.string(),
});

/**
 * SES events queue (`QUEUES.sesEvents`): the SES event JSON, inside SNS's envelope or (raw delivery) as
 * the body itself; the output is the SES event's JSON text, parsed by shared/domain/ses/ses-event.ts.
 */
export const sesEventsBodySchema = z.union([
  snsNotificationSchema.transform((envelope) => envelope.Message),
  z.looseObject({}).transform((event) => JSON.stringify(event)),
]);

/**
 * Inbound queue (`QUEUES.inbound`): one message stored by the MX listener, for one receiving account.
 * The raw message is already in the bucket at `raw_key` (written before the 250 reply); `email_id` is
 * chosen by the listener, so a message processed twice makes one record. A message for recipients of
 * several accounts is stored once and queued once per account, each with that account's recipients only.
 */
export const inboundMessageSchema = z.object({
  email_id: z.string().refine((id) => isId('inb', id), 'not a received email id'),
  account_id: z.string().min(1),
  /** The receiving domain's id and owning tenant (null: account-wide), as resolved at RCPT TO. */
  domain_id: z.string().min(1),
  tenant_id: z.string().nullable().default(null),
  /** That tenant's external_id (immutable), as records and webhooks name tenants. */
  tenant: z.string().nullable().default(null),
  raw_key: z.string().min(1),
  size: z.int().min(0),
  received_at: z.string(),
  /** The envelope: MAIL FROM ('' for a bounce) and this account's RCPT TO addresses. */
  mail_from: z.string(),
  rcpt_to: z.array(z.string()).min(1),
  /** The connection: client address, EHLO/HELO name, whether STARTTLS was used. */
  remote_address: z.string(),
  helo: z.string(),
  tls: z.boolean(),
  /**
   * SPF, DKIM and DMARC as the listener checked them at the end of DATA (once per message). Absent in
   * messages queued before the listener checked (the worker records those as unchecked: `temperror`).
   */
  authentication: authenticationChecksSchema.optional(),
});
export type InboundMessage = z.output<typeof inboundMessageSchema>;
/** What the MX listener enqueues today: always with its checks (the field is optional for older messages only). */
export type CheckedInboundMessage = InboundMessage & { authentication: AuthenticationChecks };
