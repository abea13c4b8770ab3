/**
 * Demo accounts the provider emulator seeds at start, so someone running the service locally can try
 * an import (POST /migrations) without a real provider account: a small, realistic data set per
 * provider under well-known keys (DEMO_KEYS). Not used by tests.
 */
import type { AccountSeed } from './state';
import { mailgunDomain, type MailgunSeed } from './mailgun/seed';
import { postmarkServer, postmarkStream, postmarkTriggers, type PostmarkSeed } from './postmark/seed';
import { sendgridWebhook, type SendgridSeed } from './sendgrid/seed';

/** The host of the demo accounts' webhook URLs (the local cloud publishes an A record for it). */
export const DEMO_WEBHOOK_HOST = 'hooks.demo-customer.example';

export const DEMO_KEYS = {
  sendgrid: 'SG.local-demo',
  /** Postmark server token. */
  postmark: 'pm-local-demo',
  /** Postmark account token (domains). */
  postmarkAccount: 'pm-local-demo-account',
  mailgun: 'key-local-demo',
} as const;

const T0 = 1735689600; // 2025-01-01T00:00:00Z
const POSTMARK_SERVER_ID = 4242;

const sendgrid: SendgridSeed = {
  bounces: [
    {
      created: T0,
      email: 'gone@demo-customer.example',
      reason: '550 5.1.1 The email account that you tried to reach does not exist.',
      status: '5.1.1',
    },
    {
      created: T0 + 60,
      email: 'full@demo-customer.example',
      reason: '452 4.2.2 The email account that you tried to reach is over quota.',
      status: '4.2.2',
    },
  ],
  blocks: [
    {
      created: T0 + 120,
      email: 'filtered@demo-customer.example',
      reason: 'error dialing remote address: no route to host',
      status: '4.0.0',
    },
  ],
  spam_reports: [{ created: T0 + 180, email: 'angry@demo-customer.example', ip: '10.63.202.100' }],
  invalid_emails: [{ created: T0 + 240, email: 'nobody@invalid.example', reason: 'Mail domain mentioned in email address is unknown' }],
  unsubscribes: [
    { created: T0 + 300, email: 'bye@demo-customer.example' },
    { created: T0 + 360, email: 'angry@demo-customer.example' },
  ],
  asm_groups: [
    {
      group: { id: 501, name: 'Newsletter', description: 'Monthly news', is_default: true },
      suppressions: ['reader@demo-customer.example'],
    },
  ],
  templates: [
    {
      id: 'd-1d8b1a8e6f2c4b0e9a3f5c7d9e1b2a40',
      name: 'Welcome',
      generation: 'dynamic',
      updated_at: '2025-01-02 10:00:00',
      versions: [
        {
          id: '5d1e2f3a-0b4c-4d5e-8f60-718293a4b5c6',
          template_id: 'd-1d8b1a8e6f2c4b0e9a3f5c7d9e1b2a40',
          active: 1,
          name: 'v1',
          html_content: '<h1>Welcome, {{first_name}}!</h1>{{#if trial}}<p>Your trial ends {{trial.ends_on}}.</p>{{/if}}',
          plain_content: 'Welcome, {{first_name}}!',
          generate_plain_content: false,
          subject: 'Welcome to {{company}}',
          updated_at: '2025-01-02 10:00:00',
          editor: 'code',
        },
      ],
    },
  ],
  domains: [
    {
      id: 9001,
      user_id: 1234,
      subdomain: 'em1234',
      domain: 'demo-customer.example',
      username: 'demo',
      ips: [],
      custom_spf: false,
      default: true,
      legacy: false,
      automatic_security: true,
      valid: true,
      dns: {
        mail_cname: { valid: true, type: 'cname', host: 'em1234.demo-customer.example', data: 'u1234.wl.sendgrid.net' },
        dkim1: { valid: true, type: 'cname', host: 's1._domainkey.demo-customer.example', data: 's1.domainkey.u1234.wl.sendgrid.net' },
        dkim2: { valid: true, type: 'cname', host: 's2._domainkey.demo-customer.example', data: 's2.domainkey.u1234.wl.sendgrid.net' },
      },
    },
  ],
  webhooks: [
    sendgridWebhook({
      id: '0b7c2d4e-1f3a-4b5c-8d6e-7f8091a2b3c4',
      url: 'https://hooks.demo-customer.example/sendgrid',
      friendly_name: 'Events',
      dropped: true,
      delivered: true,
      bounce: true,
      open: true,
      click: true,
      spam_report: true,
      unsubscribe: true,
      updated_date: '2025-01-03T09:00:00Z',
    }),
  ],
};

const postmark: PostmarkSeed = {
  server: postmarkServer(POSTMARK_SERVER_ID, 'Demo server', { InboundAddress: 'abc123@inbound.postmarkapp.com', InboundHash: 'abc123' }),
  message_streams: [
    postmarkStream(POSTMARK_SERVER_ID, 'outbound', 'Default Transactional Stream', 'Transactional'),
    postmarkStream(POSTMARK_SERVER_ID, 'broadcast', 'Newsletter', 'Broadcasts'),
    postmarkStream(POSTMARK_SERVER_ID, 'inbound', 'Default Inbound Stream', 'Inbound'),
  ],
  suppressions: {
    outbound: [
      {
        EmailAddress: 'gone@demo-customer.example',
        SuppressionReason: 'HardBounce',
        Origin: 'Recipient',
        CreatedAt: '2025-01-02T08:58:33-05:00',
      },
      {
        EmailAddress: 'angry@demo-customer.example',
        SuppressionReason: 'SpamComplaint',
        Origin: 'Recipient',
        CreatedAt: '2025-01-02T09:00:00-05:00',
      },
      {
        EmailAddress: 'blocked-by-us@demo-customer.example',
        SuppressionReason: 'ManualSuppression',
        Origin: 'Customer',
        CreatedAt: '2025-01-02T09:10:00-05:00',
      },
    ],
    broadcast: [
      {
        EmailAddress: 'reader@demo-customer.example',
        SuppressionReason: 'ManualSuppression',
        Origin: 'Recipient',
        CreatedAt: '2025-01-03T10:00:00-05:00',
      },
    ],
  },
  templates: [
    {
      TemplateId: 7001,
      Name: 'Basic layout',
      Alias: 'basic',
      Subject: null,
      HtmlBody: '<html><body>{{{@content}}}<footer>{{company_name}}</footer></body></html>',
      TextBody: '{{{@content}}}\n\n{{company_name}}',
      AssociatedServerId: POSTMARK_SERVER_ID,
      Active: true,
      TemplateType: 'Layout',
      LayoutTemplate: null,
    },
    {
      TemplateId: 7002,
      Name: 'Welcome',
      Alias: 'welcome',
      Subject: 'Welcome, {{name}}',
      HtmlBody: '<p>Hello {{name}}</p>{{#each products}}<li>{{title}}</li>{{/each}}',
      TextBody: 'Hello {{name}}',
      AssociatedServerId: POSTMARK_SERVER_ID,
      Active: true,
      TemplateType: 'Standard',
      LayoutTemplate: 'basic',
    },
  ],
  domains: [
    {
      ID: 36735,
      Name: 'demo-customer.example',
      SPFVerified: true,
      SPFHost: 'demo-customer.example',
      SPFTextValue: 'v=spf1 a mx include:spf.mtasv.net ~all',
      DKIMVerified: true,
      WeakDKIM: false,
      DKIMHost: '20250101000000pm._domainkey.demo-customer.example',
      DKIMTextValue: 'k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDemo',
      DKIMPendingHost: '',
      DKIMPendingTextValue: '',
      DKIMRevokedHost: '',
      DKIMRevokedTextValue: '',
      SafeToRemoveRevokedKeyFromDNS: false,
      DKIMUpdateStatus: 'Verified',
      ReturnPathDomain: 'pm-bounces.demo-customer.example',
      ReturnPathDomainVerified: true,
      ReturnPathDomainCNAMEValue: 'pm.mtasv.net',
    },
  ],
  webhooks: [
    {
      ID: 1234567,
      Url: 'https://hooks.demo-customer.example/postmark',
      MessageStream: 'outbound',
      HttpAuth: { Username: null, Password: null },
      HttpHeaders: [],
      Triggers: postmarkTriggers({ Open: true, Click: true, Delivery: true, Bounce: true, SpamComplaint: true }),
    },
  ],
};

const mailgun: MailgunSeed = {
  domains: [
    {
      domain: mailgunDomain('mg.demo-customer.example', '55a55f40803267158aa113e8', 'active', 'Tue, 14 Jan 2025 19:13:04 GMT'),
      receiving_dns_records: [
        { cached: [], is_active: true, priority: '10', record_type: 'MX', valid: 'valid', value: 'mxa.mailgun.org' },
        { cached: [], is_active: true, priority: '10', record_type: 'MX', valid: 'valid', value: 'mxb.mailgun.org' },
      ],
      sending_dns_records: [
        {
          cached: [],
          is_active: true,
          name: 'mg.demo-customer.example',
          record_type: 'TXT',
          valid: 'valid',
          value: 'v=spf1 include:mailgun.org ~all',
        },
        {
          cached: [],
          is_active: true,
          name: 'k1._domainkey.mg.demo-customer.example',
          record_type: 'TXT',
          valid: 'valid',
          value: 'k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GDemo',
        },
        { cached: [], is_active: true, name: 'email.mg.demo-customer.example', record_type: 'CNAME', valid: 'valid', value: 'mailgun.org' },
      ],
      bounces: [
        { address: 'gone@demo-customer.example', code: '550', error: 'No such mailbox', created_at: 'Thu, 02 Jan 2025 11:02:55 GMT' },
      ],
      complaints: [{ address: 'angry@demo-customer.example', created_at: 'Thu, 02 Jan 2025 12:00:00 GMT' }],
      unsubscribes: [
        { address: 'bye@demo-customer.example', tags: ['*'], created_at: 'Fri, 03 Jan 2025 09:00:00 GMT' },
        { address: 'reader@demo-customer.example', tags: ['newsletter'], created_at: 'Fri, 03 Jan 2025 09:30:00 GMT' },
      ],
      templates: [
        {
          name: 'welcome',
          description: 'Welcome email',
          createdAt: 'Thu, 02 Jan 2025 10:00:00 UTC',
          createdBy: '',
          id: 'tmpl-demo-1',
          versions: [
            {
              tag: 'initial',
              template: '<p>Hello {{first_name}}</p>',
              engine: 'handlebars',
              mjml: '',
              createdAt: 'Thu, 02 Jan 2025 10:00:00 UTC',
              comment: '',
              active: true,
              id: 'ver-demo-1',
              headers: { Subject: 'Welcome, {{first_name}}' },
            },
          ],
        },
      ],
      webhooks: {
        delivered: { urls: ['https://hooks.demo-customer.example/mailgun'] },
        permanent_fail: { urls: ['https://hooks.demo-customer.example/mailgun'] },
      },
    },
  ],
};

export const DEMO_ACCOUNTS: AccountSeed[] = [
  { provider: 'sendgrid', api_key: DEMO_KEYS.sendgrid, data: sendgrid },
  { provider: 'postmark', api_key: DEMO_KEYS.postmark, account_api_key: DEMO_KEYS.postmarkAccount, data: postmark },
  { provider: 'mailgun', api_key: DEMO_KEYS.mailgun, data: mailgun },
];
