/**
 * Examples of the document: what requests and answers look like. test/unit/openapi/document.test.ts
 * validates every one against its schema, so they cannot drift from the API.
 */
const ULID = '01JD8Z6Q0R5M3W2K9X7V4T1B8N';
const ULID2 = '01JD8Z7A2C4E6G8J0K2M4P6R8T';
export const id = (prefix: string, second = false) => `${prefix}_${second ? ULID2 : ULID}`;

const CREATED = '2026-11-23T09:30:00.000Z';
export const LATER = '2026-11-23T09:30:02.412Z';
/** A day after LATER: a rotated secret's default overlap. */
export const DAY_AFTER = '2026-11-24T09:30:02.412Z';

export const exampleEmail = {
  object: 'email',
  id: id('msg'),
  from: 'Acme <billing@acme.com>',
  to: ['ada@example.com'],
  cc: [],
  bcc: [],
  reply_to: ['support@acme.com'],
  subject: 'Your invoice #1042',
  status: 'delivered',
  last_event: 'delivered',
  bounce_reason: null,
  bounce_type: null,
  bounce_category: null,
  tags: [{ name: 'kind', value: 'invoice' }],
  attachments: [{ filename: 'invoice-1042.pdf', content_type: 'application/pdf', size: 48213, content_id: null }],
  scheduled_at: null,
  cancelled_at: null,
  sent_at: '2026-11-23T09:30:01.020Z',
  message_id: '<0100019ab7c3a1f2-5d0e2f1a-8c4b-4e6a-9f3d-2b7c1e0a4d5f-000000@email.amazonses.com>',
  delivered_at: LATER,
  bounced_at: null,
  created_at: CREATED,
  tenant: null,
  track_opens: null,
  track_clicks: null,
  content: 'kept' as const,
};

export const exampleSendRequest = {
  from: 'Acme <billing@acme.com>',
  to: 'ada@example.com',
  subject: 'Your invoice #1042',
  html: '<p>Hi Ada, your invoice is attached.</p>',
  text: 'Hi Ada, your invoice is attached.',
  reply_to: 'support@acme.com',
  tags: [{ name: 'kind', value: 'invoice' }],
  attachments: [{ filename: 'invoice-1042.pdf', content: 'JVBERi0xLjQKJcfsj6IK' }],
};

export const exampleApiKey = {
  object: 'api_key',
  id: id('key'),
  name: 'production sender',
  scopes: ['emails:send'],
  tenant: null,
  allowed_domains: ['acme.com'],
  hint: 'svc_AbCd…',
  created_at: CREATED,
};

export const exampleSmtpCredential = {
  object: 'smtp_credential',
  id: id('smtp'),
  name: 'wordpress',
  username: 'mailservice',
  tenant: null,
  allowed_domains: null,
  created_at: CREATED,
  last_used_at: null,
};

export const exampleDomain = {
  object: 'domain',
  id: id('dom'),
  name: 'acme.com',
  status: 'pending',
  tenant: null,
  records: [
    {
      purpose: 'ownership',
      type: 'TXT',
      name: '_service.acme.com',
      value: 'service-verification=3f9a1c',
      required: true,
      status: 'pending',
    },
    {
      purpose: 'spf',
      type: 'TXT',
      name: 'acme.com',
      value: 'v=spf1 include:spf.mailservice.dev ~all',
      required: true,
      status: 'not_found',
      found: [],
      message: 'No TXT record found at acme.com. Publish TXT acme.com with the value "v=spf1 include:spf.mailservice.dev ~all".',
    },
  ],
  open_tracking: false,
  click_tracking: false,
  tls_mode: 'opportunistic',
  inbound_enabled: false,
  inbound_store_content: true,
  dmarc_reports: { enabled: false, address: null, authorization_record: null },
  inbound_subdomain: null,
  created_at: CREATED,
  updated_at: CREATED,
  verified_at: null,
  last_checked_at: null,
  provider: null,
};

export const exampleTenant = {
  id: id('ten'),
  object: 'tenant',
  external_id: 'customer-42',
  name: 'Customer 42',
  status: 'active',
  paused_reason: null,
  paused_at: null,
  pause_source: null,
  default_from_domain: 'customer42.com',
  stream_policy: 'all',
  daily_limit: null,
  metadata: { plan: 'gold' },
  created_at: CREATED,
  updated_at: CREATED,
};

export const exampleWebhook = {
  object: 'webhook',
  id: id('wh'),
  url: 'https://acme.com/webhooks/mail',
  events: ['email.delivered', 'email.bounced'],
  enabled: true,
  delivery: 'push',
  secret_rotated_at: null,
  previous_secret_expires_at: null,
  created_at: CREATED,
  updated_at: CREATED,
};

export const exampleDelivery = {
  object: 'webhook_delivery',
  id: id('whd'),
  webhook_id: id('wh'),
  event_id: id('evt'),
  event_type: 'email.delivered',
  status: 'succeeded',
  attempts: [{ attempt: 1, at: LATER, status_code: 200, duration_ms: 84, error: null, response_excerpt: 'ok' }],
  next_attempt_at: null,
  payload: { type: 'email.delivered', created_at: LATER, data: { email_id: id('msg'), status: 'delivered' } },
  created_at: LATER,
  updated_at: LATER,
};

export const exampleSuppression = {
  object: 'suppression',
  id: id('sup'),
  email: 'bounced@example.com',
  scope: 'account',
  tenant: null,
  reason: 'manual',
  created_at: CREATED,
};

export const exampleTemplate = {
  object: 'template',
  id: id('tpl'),
  alias: 'welcome',
  name: 'Welcome',
  subject: 'Welcome, {{first_name}}',
  html: '<p>Hi {{first_name}}, welcome aboard.</p>',
  text: null,
  from: 'Acme <hello@acme.com>',
  reply_to: [],
  category: 'transactional',
  unsubscribe_enabled: false,
  track_opens: null,
  track_clicks: null,
  variables: [{ key: 'first_name', type: 'string', fallback_value: 'there' }],
  status: 'published',
  published_at: CREATED,
  has_unpublished_changes: false,
  published_version: 1,
  created_at: CREATED,
  updated_at: CREATED,
};

export const exampleAutomationRequest = {
  name: 'Welcome series',
  status: 'active',
  trigger: { event: 'user.signed_up', cancel_on_events: ['user.deleted'] },
  steps: [
    { key: 'welcome', type: 'send_email', template: { id: 'welcome', variables: { first_name: '{{event.data.first_name}}' } } },
    { key: 'wait', type: 'delay', duration: '3 days' },
    { key: 'still-trialing', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'trial' },
    { key: 'tips', type: 'send_email', from: 'Acme <hello@acme.com>', subject: 'Three tips', text: 'Hi {{event.email}}, ...' },
  ],
};

export const exampleAutomation = {
  object: 'automation',
  id: id('auto'),
  name: 'Welcome series',
  status: 'active',
  trigger: { event: 'user.signed_up', cancel_on_events: ['user.deleted'] },
  steps: [
    {
      key: 'welcome',
      type: 'send_email',
      to: ['{{event.email}}'],
      template: { id: 'welcome', variables: { first_name: '{{event.data.first_name}}' } },
    },
    { key: 'wait', type: 'delay', duration: '3 days' },
    { key: 'still-trialing', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'trial' },
    {
      key: 'tips',
      type: 'send_email',
      to: ['{{event.email}}'],
      from: 'Acme <hello@acme.com>',
      subject: 'Three tips',
      text: 'Hi {{event.email}}, ...',
    },
  ],
  version: 1,
  created_at: CREATED,
  updated_at: CREATED,
  activated_at: CREATED,
  allowed_domains: null,
};

export const exampleRunSummary = {
  object: 'automation_run',
  id: id('run'),
  automation_id: id('auto'),
  automation_version: 1,
  status: 'running',
  event: { id: id('ae'), name: 'user.signed_up', user_id: 'u_123', email: 'ada@example.com', created_at: CREATED },
  current_step: { index: 1, key: 'wait', type: 'delay', state: 'waiting', wake_at: '2026-11-26T09:30:01.000Z', waiting_for: null },
  steps_completed: 1,
  error: null,
  created_at: CREATED,
  updated_at: LATER,
  ended_at: null,
};

export const exampleEvent = {
  name: 'user.signed_up',
  user_id: 'u_123',
  email: 'ada@example.com',
  data: { first_name: 'Ada', plan: 'trial' },
};

export const exampleReceivedEmail = {
  object: 'received_email',
  id: id('inb'),
  status: 'received',
  from: 'Ada <ada@example.com>',
  to: ['support@inbound.acme.com'],
  cc: [],
  reply_to: [],
  subject: 'Re: Your invoice #1042',
  message_id: '<CAF1234@mail.example.com>',
  in_reply_to: null,
  references: [],
  date: CREATED,
  mail_from: 'ada@example.com',
  rcpt_to: ['support@inbound.acme.com'],
  plus_address: null,
  spam_status: 'not_spam',
  authentication: {
    spf: { result: 'pass', domain: 'example.com' },
    dkim: [{ result: 'pass', domain: 'example.com', selector: 's1', aligned: true }],
    dmarc: { result: 'pass', domain: 'example.com', policy: 'reject' },
    spam_reasons: [],
  },
  auto_submitted: null,
  stripped_text: 'Thanks, received.',
  attachment_count: 0,
  attachments: [],
  size: 2841,
  tls: true,
  parse_error: null,
  truncated: false,
  tenant: null,
  received_at: CREATED,
  content: 'kept' as const,
};

export const exampleMigrationRequest = {
  provider: 'sendgrid',
  api_key: 'SG.xxxxx',
  resources: ['domains', 'templates', 'suppressions'],
  dry_run: true,
};

const zeroTotals = { found: 0, imported: 0, skipped: 0, failed: 0 };
export const exampleMigrationSummary = {
  object: 'migration',
  id: id('mig'),
  provider: 'sendgrid',
  region: 'us',
  resources: ['domains', 'templates', 'suppressions'],
  dry_run: false,
  status: 'completed',
  has_more: false,
  next_cursor: null,
  requests: 1,
  created_at: CREATED,
  updated_at: LATER,
  totals: {
    domains: { found: 1, imported: 1, skipped: 0, failed: 0 },
    webhooks: zeroTotals,
    templates: { ...zeroTotals, needs_attention: 0 },
    suppressions: {
      found: 2,
      imported: 2,
      already_suppressed: 0,
      skipped: 0,
      failed: 0,
      bounce: 1,
      complaint: 0,
      unsubscribe: 1,
      manual: 0,
      product_opt_out: 0,
    },
  },
};

export const exampleError = (status: number, code: string): unknown => {
  const messages: Record<string, string> = {
    validation_error: 'Invalid request body: check to.',
    not_found: `The resource ${id('msg')} was not found.`,
    insufficient_scope: 'This API key lacks the scope needed here: one of full, mail:admin, emails:send.',
    internal_error: 'An internal error occurred. Retry with backoff; if it persists, contact support with the request id.',
  };
  const details: Record<string, unknown> = {
    validation_error: {
      fields: [{ field: 'to', message: '"ann@" is not a valid email address: write name@example.com or "Name <name@example.com>"' }],
    },
    insufficient_scope: { required_scopes: ['full', 'mail:admin', 'emails:send'], key_scopes: ['account:read'] },
  };
  return {
    error: {
      message: messages[code] ?? `${status} ${code}`,
      code,
      ...(details[code] ? { details: details[code] } : {}),
    },
  };
};
