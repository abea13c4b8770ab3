/**
 * The `resend` SDK, unmodified, pointed at this service: emails.send, batch.send (a bare array with the
 * x-batch-validation header the SDK always sets), emails.cancel.
 */
import { Resend } from 'resend';
import { api, newAccount, stack, type TestAccount } from './harness/stack';

const SANDBOX = 'a@sandbox.mailservice.dev';

describe('the resend SDK against this service', () => {
  let account: TestAccount;
  let resend: Resend;

  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
    resend = new Resend(account.key, { baseUrl: stack().apiUrl });
    jest.spyOn(console, 'error').mockImplementation(() => undefined); // the SDK logs API errors
  });

  it('sends with emails.send', async () => {
    const { data, error } = await resend.emails.send({ from: SANDBOX, to: account.email, subject: 'sdk', html: '<p>hi</p>' });
    expect(error).toBeNull();
    expect(data?.id).toMatch(/^msg_/);
  });

  it('sends a batch with batch.send (bare array, strict validation by default)', async () => {
    const { data, error } = await resend.batch.send([
      { from: SANDBOX, to: account.email, subject: 'one', text: '1' },
      { from: SANDBOX, to: account.email, subject: 'two', text: '2' },
    ]);
    expect(error).toBeNull();
    const items = (data as unknown as { data: { id: string }[] }).data;
    expect(items).toHaveLength(2);
    for (const item of items) expect(item.id).toMatch(/^msg_/);
  });

  it('refuses a whole strict batch with an invalid item, sending nothing', async () => {
    const before = await api('GET', '/emails?limit=100', { key: account.key });
    const { data, error } = await resend.batch.send([
      { from: SANDBOX, to: account.email, subject: 'ok', text: '1' },
      { from: SANDBOX, to: 'not an address', subject: 'bad', text: '2' },
    ]);
    expect(data).toBeNull();
    expect(error).toMatchObject({
      error: { code: 'validation_error', details: { fields: expect.arrayContaining([expect.objectContaining({ field: 'emails.1.to' })]) } },
    });
    const after = await api('GET', '/emails?limit=100', { key: account.key });
    expect(after.body.emails.length).toBe(before.body.emails.length);
  });

  it('reports invalid items one by one with batchValidation permissive', async () => {
    const { data, error } = await resend.batch.send(
      [
        { from: SANDBOX, to: account.email, subject: 'ok', text: '1' },
        { from: SANDBOX, to: 'not an address', subject: 'bad', text: '2' },
      ],
      { batchValidation: 'permissive' },
    );
    expect(error).toBeNull();
    const items = (data as unknown as { data: { id: string | null; status: string }[] }).data;
    expect(items[0]!.id).toMatch(/^msg_/);
    expect(items[1]).toMatchObject({ id: null, status: 'failed' });
  });

  it('cancels a scheduled email with emails.cancel', async () => {
    const scheduledAt = new Date(Date.now() + 3600_000).toISOString();
    const sent = await resend.emails.send({ from: SANDBOX, to: account.email, subject: 'later', text: 'x', scheduledAt });
    expect(sent.error).toBeNull();
    const { data, error } = await resend.emails.cancel(sent.data!.id);
    expect(error).toBeNull();
    expect(data).toMatchObject({ object: 'email', id: sent.data!.id });
    const stored = await api('GET', `/emails/${sent.data!.id}`, { key: account.key });
    expect(stored.body.email.status).toBe('cancelled');
    const again = await resend.emails.cancel(sent.data!.id);
    expect(again.error).toMatchObject({ error: { code: 'conflict' } });
  });
});
