/**
 * One header rule for every door (shared/domain/emails/headers.ts, docs/api.md "Refused headers"): the whole
 * X-SES- prefix, in any case, is refused with the door's 400 (Postmark's 422 ErrorCode 300) naming the
 * header, on POST /emails, POST /emails/batch and the SendGrid, Postmark and Mailgun doors; nothing is sent.
 * An automation's send step takes no headers at all (400), and a template none (its sends take the send
 * request's). (The SMTP relay strips the same prefix instead: smtp-relay.test.ts.)
 */
import { api, newAccount, stack, type TestAccount } from './harness/stack';

const SANDBOX_DOMAIN = 'sandbox.mailservice.dev';
const SANDBOX = `a@${SANDBOX_DOMAIN}`;
/** Not among the five X-SES names refused before: the prefix is the rule, in any case. */
const RESERVED = ['X-SES-TENANT', 'X-Ses-Anything', 'x-ses-configuration-set'];

async function post(path: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(new URL(path, stack().apiUrl), { method: 'POST', headers, body });
  return { status: response.status, text: await response.text() };
}

describe('X-SES-* headers are refused on every door that takes headers', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
  });

  /** The account sent nothing with this subject (a refused request records no email). */
  async function expectNothingSent(subject: string): Promise<void> {
    const listed = await api('GET', '/emails?limit=100', { key: account.key });
    expect(listed.status).toBe(200);
    expect((listed.body.emails as { subject: string }[]).filter((email) => email.subject === subject)).toEqual([]);
  }

  it.each(RESERVED)('POST /emails refuses %s: 400 naming headers.<Name>', async (name) => {
    const subject = `single ${name}`;
    const response = await api('POST', '/emails', {
      key: account.key,
      body: { from: SANDBOX, to: account.email, subject, text: 'hi', headers: { 'X-Campaign': 'ok', [name]: 'x' } },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_error');
    expect(response.body.error.details.fields).toEqual([
      expect.objectContaining({ field: `headers.${name}`, message: expect.stringContaining('X-SES-*') }),
    ]);
    await expectNothingSent(subject);
  });

  it('POST /emails/batch, strict: 400 naming emails.<n>.headers.<Name>, nothing sent', async () => {
    const ok = { from: SANDBOX, to: account.email, subject: 'batch strict', text: 'hi' };
    const response = await api('POST', '/emails/batch', {
      key: account.key,
      headers: { 'x-batch-validation': 'strict' },
      body: [ok, { ...ok, headers: { 'X-Ses-Anything': 'x' } }],
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toEqual([expect.objectContaining({ field: 'emails.1.headers.X-Ses-Anything' })]);
    await expectNothingSent('batch strict');
  });

  it('POST /emails/batch, permissive: the item with the header fails naming it, the other is sent', async () => {
    const ok = { from: SANDBOX, to: account.email, subject: 'batch permissive', text: 'hi' };
    const response = await api('POST', '/emails/batch', {
      key: account.key,
      body: [ok, { ...ok, subject: 'batch permissive refused', headers: { 'X-SES-TENANT': 'x' } }],
    });
    expect(response.status).toBe(200);
    const [sent, refused] = response.body.data as {
      id: string | null;
      error?: { code: string; details: { fields: { field: string }[] } };
    }[];
    expect(sent!.id).toMatch(/^msg_/);
    expect(refused).toMatchObject({
      id: null,
      error: { code: 'validation_error', details: { fields: [expect.objectContaining({ field: 'headers.X-SES-TENANT' })] } },
    });
    await expectNothingSent('batch permissive refused');
  });

  it('the SendGrid door refuses it: 400 naming the header', async () => {
    const body = {
      from: { email: SANDBOX },
      subject: 'sendgrid',
      content: [{ type: 'text/plain', value: 'hi' }],
      personalizations: [{ to: [{ email: account.email }], headers: { 'X-SES-TENANT': 'other' } }],
    };
    const response = await post(
      '/v3/mail/send',
      { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
      JSON.stringify(body),
    );
    expect(response.status).toBe(400);
    expect(response.text).toContain('X-SES-TENANT');
    await expectNothingSent('sendgrid');
  });

  it('the Postmark door refuses it: 422, ErrorCode 300, naming the header', async () => {
    const body = {
      From: SANDBOX,
      To: account.email,
      Subject: 'postmark',
      TextBody: 'hi',
      Headers: [{ Name: 'X-Ses-Anything', Value: 'x' }],
    };
    const response = await post(
      '/email',
      { 'x-postmark-server-token': account.key, 'content-type': 'application/json', accept: 'application/json' },
      JSON.stringify(body),
    );
    expect(response.status).toBe(422);
    expect(JSON.parse(response.text)).toMatchObject({ ErrorCode: 300, Message: expect.stringContaining('X-Ses-Anything') });
    await expectNothingSent('postmark');
  });

  it('the Mailgun door refuses it: 400 naming the header', async () => {
    const form = new URLSearchParams({ from: SANDBOX, to: account.email, subject: 'mailgun', text: 'hi', 'h:X-SES-TENANT': 'other' });
    const auth = `Basic ${Buffer.from(`api:${account.key}`).toString('base64')}`;
    const response = await post(
      `/v3/${SANDBOX_DOMAIN}/messages`,
      { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      form.toString(),
    );
    expect(response.status).toBe(400);
    expect(response.text).toContain('X-SES-TENANT');
    await expectNothingSent('mailgun');
  });

  it('an automation send step takes no headers: 400 naming the field', async () => {
    const body = {
      name: 'headers',
      trigger: { event: 'user.created' },
      steps: [{ key: 'welcome', type: 'send_email', from: SANDBOX, subject: 'hi', text: 'hi', headers: { 'X-SES-TENANT': 'other' } }],
    };
    const response = await api('POST', '/automations', { key: account.key, body });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toEqual([expect.objectContaining({ field: expect.stringMatching(/^steps\.0/) })]);
  });
});
