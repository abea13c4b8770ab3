/**
 * Example `data` for POST /emails/test when no email_id is given (shapes of the spec's Events). Pure.
 * With a tenant named, email events carry its external_id and tenant events are about that tenant.
 */
import type { Tenant } from '../tenants/tenant';
import type { EventType } from './event-types';
import { tenantEventData } from './tenant-event-data';
import { accountEventData } from './account-event-data';

const SAMPLE_TENANT = {
  id: 'ten_00000000000000000000000000',
  external_id: 'customer-42',
  name: 'Customer 42',
  status: 'active' as const,
  paused_reason: null,
  paused_at: null,
  pause_source: null,
  updated_at: '',
};

/** The account of account.* examples (POST /emails/test says which account it is for in the event itself). */
const SAMPLE_ACCOUNT_ID = 'acc_00000000000000000000000000';

/** What every example is built from: the time, the tenant named (if any) and the tenant of tenant.* examples. */
interface SampleContext {
  now: string;
  tenant: string | null;
  sampleTenant: typeof SAMPLE_TENANT;
}

const sampleEmail = ({ now, tenant }: SampleContext) => ({
  email_id: 'msg_00000000000000000000000000',
  from: 'Acme <hello@example.com>',
  to: ['customer@example.org'],
  subject: 'Test event',
  tags: [],
  created_at: now,
  ...(tenant ? { tenant } : {}),
});

const SAMPLE_RUN = {
  automation_id: 'aut_00000000000000000000000000',
  automation_name: 'Test automation',
  run_id: 'run_00000000000000000000000000',
  event_name: 'user.signed_up',
  step_index: 0,
  step_type: 'send_email',
  error: null,
};

const HARD_BOUNCE = { bounce_reason: 'smtp; 550 5.1.1 user unknown', bounce_type: 'hard', bounce_category: 'invalid_address' };

const sampleReceived = ({ now }: SampleContext) => ({
  email_id: 'inb_00000000000000000000000000',
  to: ['support@inbound.example.com'],
  from: 'customer@example.org',
  subject: 'Test inbound',
  status: 'received',
  rcpt_to: ['support@inbound.example.com'],
  cc: [],
  message_id: '<test@example.org>',
  in_reply_to: null,
  references: [],
  spam_status: 'not_spam',
  attachment_count: 0,
  attachments: [],
  received_at: now,
});

const sampleUnsubscribe = () => ({
  email: 'customer@example.org',
  source: 'link',
  scope: 'all',
  category: null,
  category_label: null,
  suppression_id: 'sup_00000000000000000000000000',
  category_opt_out_id: null,
  email_id: 'msg_00000000000000000000000000',
});

const sampleHealthChange = ({ now, tenant }: SampleContext) => ({
  domain_id: 'dom_00000000000000000000000000',
  domain: 'example.com',
  tenant,
  checked_at: now,
  opened: [
    {
      type: 'dmarc_missing',
      check: 'dmarc',
      impact: 'high',
      message: 'example.com publishes no DMARC record: Gmail and Yahoo require one of bulk senders.',
      record: { type: 'TXT', name: '_dmarc.example.com', value: 'v=DMARC1; p=none' },
      docs_url: 'https://support.google.com/a/answer/81126',
      first_seen_at: now,
      fixed_at: null,
    },
  ],
  fixed: [],
  summary: { open: 1, high: 1, low: 0 },
});

const sampleAccountPaused = ({ now }: SampleContext) =>
  accountEventData({
    id: SAMPLE_ACCOUNT_ID,
    status: 'paused',
    paused_reason:
      "Reputation brake: the deployment's bounce rate 4.2% over 12000 emails sent in the last 2 UTC days, at or over the brake's 4% (AWS reviews at 5%); this account's own bounce rate 18% over 1500 emails sent in the last 2 UTC days, 270 of the deployment's 504 bounces.",
    paused_at: now,
    pause_source: 'automated',
    pause_figures: {
      rule: 'deployment_brake',
      metric: 'bounce',
      threshold: 0.04,
      window_days: 2,
      account: { sent: 1500, bounced: 270, complained: 0, bounce_rate: 0.18, complaint_rate: 0 },
      deployment: { sent: 12000, bounced: 504, complained: 3, bounce_rate: 0.042, complaint_rate: 0.00025 },
    },
    updated_at: now,
  });

/** Every event type's example (a Record: a new event type without one does not compile). */
const SAMPLES: Record<EventType, (context: SampleContext) => Record<string, unknown>> = {
  'email.sent': (c) => ({
    ...sampleEmail(c),
    status: 'sent',
    sent_at: c.now,
    message_id: '<0100000000000000-00000000-0000-0000-0000-000000000000-000000@email.amazonses.com>',
  }),
  'email.delivered': (c) => ({ ...sampleEmail(c), status: 'delivered', delivered_at: c.now }),
  'email.delivery_delayed': (c) => ({ ...sampleEmail(c), status: 'sent', bounce_category: 'mailbox_full', delay_type: 'MailboxFull' }),
  'email.bounced': (c) => ({ ...sampleEmail(c), status: 'bounced', ...HARD_BOUNCE, bounced_at: c.now }),
  'email.failed': (c) => ({ ...sampleEmail(c), status: 'failed', ...HARD_BOUNCE, bounced_at: c.now }),
  'email.complained': (c) => ({ ...sampleEmail(c), status: 'delivered', complained_at: c.now }),
  'email.opened': (c) => ({ ...sampleEmail(c), status: 'delivered', opened_at: c.now }),
  'email.clicked': (c) => ({ ...sampleEmail(c), status: 'delivered', clicked_at: c.now, link: 'https://example.com/' }),
  'email.suppressed': (c) => ({ ...sampleEmail(c), status: 'failed', suppressed: ['customer@example.org'], reason: 'suppressed' }),
  'email.scheduled': (c) => ({ ...sampleEmail(c), status: 'scheduled', scheduled_at: c.now }),
  'email.received': sampleReceived,
  'contact.unsubscribed': sampleUnsubscribe,
  'automation.started': () => ({ ...SAMPLE_RUN, status: 'running' }),
  'automation.step_completed': () => ({ ...SAMPLE_RUN, status: 'running' }),
  'automation.completed': () => ({ ...SAMPLE_RUN, status: 'completed' }),
  'automation.failed': () => ({ ...SAMPLE_RUN, status: 'failed', error: 'Test failure' }),
  'tenant.paused': ({ now, sampleTenant }) =>
    tenantEventData({
      ...sampleTenant,
      status: 'paused',
      paused_at: now,
      paused_reason: 'Bounce rate 7.5% over 400 emails (above 5%)',
      pause_source: 'automated',
      updated_at: now,
    }),
  'tenant.resumed': ({ now, sampleTenant }) => tenantEventData({ ...sampleTenant, updated_at: now }),
  'domain.health_changed': sampleHealthChange,
  'account.paused': sampleAccountPaused,
  'account.resumed': ({ now }) => accountEventData({ id: SAMPLE_ACCOUNT_ID, status: 'active', updated_at: now }),
};

export function sampleEventData(
  type: EventType,
  now: string,
  named: Pick<Tenant, 'id' | 'external_id' | 'name'> | null,
): Record<string, unknown> {
  const sampleTenant = named ? { ...SAMPLE_TENANT, id: named.id, external_id: named.external_id, name: named.name } : SAMPLE_TENANT;
  return SAMPLES[type]({ now, tenant: named?.external_id ?? null, sampleTenant });
}
