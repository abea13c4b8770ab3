/** agent_prompt: the text a team gives a coding agent to finish the migration, with this import's facts. */
import { agentPrompt, type AgentPromptInput } from '#shared/domain/imports/agent-prompt';
import { signatureHeaders } from '#shared/domain/webhooks/signing';

const input: AgentPromptInput = {
  provider: 'sendgrid',
  baseUrl: 'https://mail-api.example.org/',
  templateMap: [
    { source_id: 'd-0123456789abcdef0123456789abcdef', alias: 'welcome' },
    { source_id: 'd-fedcba9876543210fedcba9876543210', alias: 'order-shipped' },
  ],
  webhooks: [
    {
      url: 'https://hooks.example.com/sendgrid',
      events: ['email.delivered', 'email.bounced', 'email.failed'],
      unmapped_events: ['group_resubscribe'],
    },
    { url: 'https://other.example.com/events', events: ['email.opened'], unmapped_events: [] },
  ],
  domains: [
    { name: 'example.com', pending_changes: 3 },
    { name: 'mail.example.net', pending_changes: 0 },
  ],
  suppressionsImported: 1234,
};

describe('agentPrompt', () => {
  const prompt = agentPrompt(input);

  it('gives the template id -> alias map, one line each', () => {
    expect(prompt).toContain(
      '    d-0123456789abcdef0123456789abcdef -> welcome\n    d-fedcba9876543210fedcba9876543210 -> order-shipped\n',
    );
  });

  it('says how to send through us, with the base URL and the key from the environment', () => {
    expect(prompt).toContain("new Resend(process.env.SERVICE_API_KEY, { baseUrl: 'https://mail-api.example.org' })");
    expect(prompt).toContain('POST https://mail-api.example.org/emails');
    expect(prompt).toContain('@sendgrid/mail');
    expect(prompt).not.toContain('example.org//');
  });

  it('names the signature headers our webhooks really carry', () => {
    const headers = signatureHeaders({
      secrets: ['whsec_c2VjcmV0LWtleS1mb3ItdGVzdHM='],
      webhookId: 'evt_1',
      timestamp: 1_700_000_000,
      body: '{}',
    });
    for (const name of Object.keys(headers)) expect(prompt.toLowerCase()).toContain(name);
    expect(prompt).toContain('Service-Signature: t=<unix seconds>,v1=<hex>');
    expect(prompt).toContain('X-Twilio-Email-Event-Webhook-Signature');
    expect(prompt).toMatch(/5 minutes/);
  });

  it('lists the imported endpoints with their events and unmapped ones, and asks to enable them once verified', () => {
    expect(prompt).toContain(
      '    https://hooks.example.com/sendgrid: email.delivered, email.bounced, email.failed (no equivalent here, handle differently or drop: group_resubscribe)',
    );
    expect(prompt).toContain('    https://other.example.com/events: email.opened\n');
    expect(prompt).toContain('imported DISABLED');
    expect(prompt).toContain('PATCH https://mail-api.example.org/webhooks/{id} with {"enabled": true}');
  });

  it('lists the domains with their pending DNS changes', () => {
    expect(prompt).toContain('    example.com: 3 DNS changes to publish');
    expect(prompt).toContain('    mail.example.net: no DNS change pending');
    expect(prompt).toContain('never add a second');
  });

  it('forbids committing keys and secrets', () => {
    expect(prompt).toMatch(/Never write an API key, SMTP password or webhook signing secret into code, tests, fixtures, logs or commits/);
  });

  it('gives the suppressions count', () => {
    expect(prompt).toContain('Suppressions and opt-outs imported: 1234.');
  });

  it('speaks of each provider by its own names', () => {
    const postmark = agentPrompt({ ...input, provider: 'postmark' });
    expect(postmark).toContain('from Postmark to');
    expect(postmark).toContain('RecordType');
    expect(postmark).not.toContain('SendGrid');
    const mailgun = agentPrompt({ ...input, provider: 'mailgun' });
    expect(mailgun).toContain('signature.timestamp');
    expect(mailgun).not.toContain('SendGrid');
  });

  it('says so when nothing of a kind was imported', () => {
    const empty = agentPrompt({ ...input, templateMap: [], webhooks: [], domains: [], suppressionsImported: 1 });
    expect(empty).toContain('No templates were imported');
    expect(empty).toContain('No webhook endpoints were imported');
    expect(empty).toContain('No sending domains were imported');
    expect(empty).toContain('Suppressions and opt-outs imported: 1.');
  });

  it('is deterministic plain text', () => {
    expect(agentPrompt(input)).toBe(prompt);
    expect(prompt.endsWith('\n')).toBe(true);
    expect(prompt).not.toMatch(/undefined|null|\[object/);
  });
});
