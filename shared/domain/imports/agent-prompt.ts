/**
 * The report's agent_prompt: plain text a team pastes into a coding agent to finish the migration in
 * their own code, with this import's facts in it (template id -> alias map, webhook endpoints and their
 * events, domains with DNS changes pending, suppressions imported). Pure and deterministic: the same
 * input gives the same text (lists in the order given).
 *
 * What it asks for: replace the provider's send calls (SDK, HTTP API, SMTP) by ours; replace the
 * provider's webhook verification by ours (Standard Webhooks headers, or Service-Signature, as
 * shared/domain/webhooks/signing.ts signs) and the handlers' payload parsing; enable the imported endpoints,
 * which start disabled, once verified; publish the DNS changes; and never commit a key or a secret.
 */
import { API_KEY_VARIABLE, type TemplateMapEntry } from './code-changes';
import { PROVIDER_LABELS, type ProviderName } from './source';

export interface AgentPromptInput {
  provider: ProviderName;
  baseUrl: string;
  templateMap: readonly TemplateMapEntry[];
  webhooks: readonly { url: string; events: readonly string[]; unmapped_events: readonly string[] }[];
  domains: readonly { name: string; pending_changes: number }[];
  suppressionsImported: number;
}

/** What to look for in the code, and how the provider's webhooks were verified and shaped. */
const PROVIDER_FACTS: Record<ProviderName, { find: string; verification: string; payload: string; suppressions: string }> = {
  sendgrid: {
    find: '@sendgrid/mail, @sendgrid/client, the sendgrid Python package, api.sendgrid.com, smtp.sendgrid.net, SENDGRID_API_KEY',
    verification:
      'the Event Webhook ECDSA signature (X-Twilio-Email-Event-Webhook-Signature and X-Twilio-Email-Event-Webhook-Timestamp headers, EventWebhook.verifySignature)',
    payload: 'SendGrid posts a JSON array of events with an `event` field; ours is one JSON object per delivery',
    suppressions: 'SendGrid suppression lists and unsubscribe groups (asm)',
  },
  postmark: {
    find: 'the postmark npm package (ServerClient), postmarker, api.postmarkapp.com, smtp.postmarkapp.com, X-Postmark-Server-Token, POSTMARK_SERVER_TOKEN',
    verification: 'HTTP basic auth or custom headers set on the Postmark webhook (Postmark does not sign)',
    payload: 'Postmark posts one object with a `RecordType` field; ours has `type`',
    suppressions: 'Postmark message stream suppressions',
  },
  mailgun: {
    find: 'mailgun.js, mailgun-js, api.mailgun.net, api.eu.mailgun.net, smtp.mailgun.org, MAILGUN_API_KEY',
    verification: 'the HMAC in the body (signature.timestamp, signature.token, signature.signature, keyed with the webhook signing key)',
    payload: 'Mailgun posts {signature, event-data} with `event-data.event`; ours is {type, created_at, data}',
    suppressions: 'Mailgun bounces, complaints and unsubscribes lists',
  },
};

function templateSection(templateMap: AgentPromptInput['templateMap'], label: string): string[] {
  if (templateMap.length === 0) {
    return [
      `- No templates were imported: sends that used a ${label} template need their content written as html/text, or a template created here first.`,
    ];
  }
  return [
    `- Template sends: replace the ${label} template id with our alias and pass the variables as \`template: { id: '<alias>', variables: { ... } }\` (subject and body come from the template). ${label} template id -> our alias:`,
    ...templateMap.map((entry) => `    ${entry.source_id} -> ${entry.alias}`),
    '- Template variables are flat names now: a nested value such as user.first_name is the variable `user_first_name`; build flat objects. A template imported without a subject takes it as the variable `subject`.',
    '- Templates the import marked needs_attention are drafts (loops, conditionals or an unsubscribe link to check): sends to them fail until they are fixed and published (POST /templates/{alias}/publish). Tell me which ones the code uses.',
  ];
}

function webhookSection(webhooks: AgentPromptInput['webhooks'], baseUrl: string): string[] {
  if (webhooks.length === 0)
    return [
      '- No webhook endpoints were imported; if the code receives provider webhooks anyway, apply the same changes to those handlers.',
    ];
  return [
    '- The imported endpoints and the events each now receives:',
    ...webhooks.map((webhook) => {
      const events = webhook.events.length > 0 ? webhook.events.join(', ') : 'none';
      const unmapped =
        webhook.unmapped_events.length > 0
          ? ` (no equivalent here, handle differently or drop: ${webhook.unmapped_events.join(', ')})`
          : '';
      return `    ${webhook.url}: ${events}${unmapped}`;
    }),
    `- They were imported DISABLED. Once the handlers verify our signature and are deployed, enable each endpoint: PATCH ${baseUrl}/webhooks/{id} with {"enabled": true} (ids in the import report), and send a test email to see the events arrive.`,
  ];
}

function domainSection(domains: AgentPromptInput['domains'], baseUrl: string, label: string): string[] {
  if (domains.length === 0) return ['- No sending domains were imported.'];
  return [
    ...domains.map((domain) =>
      domain.pending_changes > 0
        ? `    ${domain.name}: ${domain.pending_changes} DNS change${domain.pending_changes === 1 ? '' : 's'} to publish (dns_plan in the import report)`
        : `    ${domain.name}: no DNS change pending`,
    ),
    '- If the DNS is managed in code in this repository (Terraform, Pulumi, CDK, zone files), make the dns_plan changes there: add and update as listed; for SPF edit the one existing record, never add a second; leave the records marked keep as they are.',
    `- Then verify each domain: POST ${baseUrl}/domains/{id} with {"action": "verify"}. Keep ${label}'s DNS records until the last email sent through ${label} has been delivered.`,
  ];
}

export function agentPrompt(input: AgentPromptInput): string {
  const label = PROVIDER_LABELS[input.provider];
  const facts = PROVIDER_FACTS[input.provider];
  const baseUrl = input.baseUrl.trim().replace(/\/+$/, '');
  const lines = [
    `Migrate this codebase from ${label} to our email service, a Resend-compatible email API at ${baseUrl}. The account data is imported already; what is left is the code. Work in small steps, run the tests after each, and show me the changes before committing.`,
    '',
    'Rules',
    `- Never write an API key, SMTP password or webhook signing secret into code, tests, fixtures, logs or commits. Read them from environment variables (${API_KEY_VARIABLE} for the API key, one variable per webhook secret, for example SERVICE_WEBHOOK_SECRET) and list only their names in .env.example or the deployment configuration.`,
    `- Keys start with svc_ and go in \`Authorization: Bearer <key>\`; they are for server-side code only.`,
    '',
    `1. Replace the ${label} send calls`,
    `- Look for: ${facts.find}.`,
    `- Node: the resend npm package, \`new Resend(process.env.${API_KEY_VARIABLE}, { baseUrl: '${baseUrl}' })\`, then \`const { data, error } = await resend.emails.send({ from, to, subject, html, text })\` (it returns errors instead of throwing: check \`error\`).`,
    `- Python: the resend package with \`resend.api_key = os.environ['${API_KEY_VARIABLE}']\` and \`resend.api_url = '${baseUrl}'\`, then \`resend.Emails.send({...})\`.`,
    `- Other languages: POST ${baseUrl}/emails with \`Authorization: Bearer <key>\` and a JSON body {from, to, subject, html, text} (or template).`,
    '- SMTP: our relay on port 587 with STARTTLS, user `mailservice`, password an SMTP credential (svcsmtp_..., created with POST /smtp-credentials); not an API key.',
    ...templateSection(input.templateMap, label),
    '',
    '2. Webhooks',
    `- In every handler of ${label} webhooks, replace ${facts.verification} with ours. Verify against the raw request body, before parsing JSON: either the Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature (\`v1,<base64>\`: HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the base64-decoded part of the secret after whsec_; the standardwebhooks libraries do it: \`new Webhook(secret).verify(rawBody, headers)\`), or Service-Signature: t=<unix seconds>,v1=<hex> (HMAC-SHA256 of "<t>.<raw body>" keyed with the whole secret string, whsec_ included). Reject a timestamp more than 5 minutes from now; compare in constant time.`,
    `- Payloads change: ${facts.payload}, {type, created_at, data} with data.email_id. Switch on \`type\` (email.delivered, email.bounced, ...). webhook-id is the same on every retry: de-duplicate on it.`,
    ...webhookSection(input.webhooks, baseUrl),
    '',
    '3. Domains',
    ...domainSection(input.domains, baseUrl, label),
    '',
    '4. Suppressions and unsubscribes',
    `- Suppressions and opt-outs imported: ${input.suppressionsImported}. Bounces, complaints and unsubscribes are suppressed automatically from now on: remove code that reads or syncs ${facts.suppressions}, and use our managed unsubscribe ({{unsubscribe_url}} in templates) instead of the provider's.`,
    '',
    '5. Finish',
    `- Once nothing uses ${label} any more, remove its package and its environment variables from the code and configuration (keep the ${label} account until its last emails are delivered).`,
    '- Run the whole test suite, and check that no key or secret appears in the diff.',
  ];
  return `${lines.join('\n')}\n`;
}
