/** The operations of the account group's Account part: the account's settings (docs/retention.md). */
import { section } from '#shared/doors/openapi/operation';
import { accountSettingsSchema, updateAccountSettingsSchema, accountStatsSchema } from './account-schemas';
import { accountStatsQuerySchema } from '#shared/domain/reputation/account-stats';

const exampleSettings = {
  object: 'account' as const,
  id: 'acc_01JD7V5K3X4Y5Z6A7B8C9D0E1F',
  email: 'owner@acme.com',
  plan: 'pro' as const,
  tenants_enabled: false,
  status: 'active' as const,
  paused_reason: null,
  paused_at: null,
  pause_source: null,
  pause_figures: null,
  retention: { emails_days: 30, received_emails_days: 90, webhook_deliveries_days: 90, imports_days: 90 },
  store_content: true,
  suppress_bounce_categories: ['invalid_address' as const, 'mailbox_inactive' as const, 'domain_invalid' as const],
  retention_bounds: { min_days: 1, max_days: 90, allowed_days: [1, 7, 14, 30, 60, 90], default_days: 90 },
  created_at: '2026-11-01T09:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
};

export const accountOps = section('account', 'Account', {
  getAccount: {
    method: 'get',
    path: '/account',
    summary: 'Get the account settings',
    description:
      "The account's plan and retention: how long emails, received emails, webhook delivery logs and import reports are kept, and the bounds its plan allows.",
    auth: 'apiKey',
    scopes: ['account:read'],
    responses: { 200: { description: 'The settings.', schema: accountSettingsSchema, example: exampleSettings } },
    errors: { 403: ['forbidden'] },
  },
  getAccountStats: {
    method: 'get',
    path: '/account/stats',
    summary: "The account's sending stats and bounces by category",
    description:
      'Sent, bounced and complained emails of the whole account (its tenants\' included, and their part), the rates, and the emails that bounced or failed delivering by bounce category (docs/deliverability.md, "Bounce categories"), over the last `days` UTC days (today included; by the day each email was accepted), in all and per day. One read of at most 90 day counters. A key limited to a tenant is 403 (its stats: GET /tenants/{tenant}/stats).',
    auth: 'apiKey',
    scopes: ['account:read'],
    query: accountStatsQuerySchema,
    responses: { 200: { description: 'The counts over `days` UTC days, in all and per day.', schema: accountStatsSchema } },
    errors: { 403: ['forbidden'] },
  },
  updateAccount: {
    method: 'patch',
    path: '/account',
    summary: 'Change the account settings',
    description:
      "Changes the retention (days, one of the allowed values up to the plan's max_days; data written after the change expires by the new value, data written before keeps its own) and `store_content` (false: sent emails' content is dropped once sent: docs/redaction.md).",
    auth: 'apiKey',
    scopes: ['account:admin'],
    body: { schema: updateAccountSettingsSchema, example: { retention: { emails_days: 30 } } },
    responses: { 200: { description: 'The settings after the change.', schema: accountSettingsSchema, example: exampleSettings } },
    errors: { 403: ['forbidden'] },
  },
});
