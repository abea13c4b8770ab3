/**
 * Scheduled sends: stored, fired by EventBridge Scheduler (the local emulator) into the send queue;
 * rescheduled and cancelled only while scheduled; a cancelled or rescheduled email never goes out at
 * the old time, even when the schedule fires during the change.
 */
import { GetScheduleCommand } from '@aws-sdk/client-scheduler';
import { createAwsClients } from '#shared/adapters/aws/clients';
import { loadConfig } from '#shared/config/config';
import { api, newAccount, sesMessagesFor, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { settledUsage, today } from './harness/usage';

const SANDBOX = 'sandbox.mailservice.dev';
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function schedule(account: TestAccount, at: string, extra: object = {}) {
  return api('POST', '/emails', {
    key: account.key,
    body: { from: `a@${SANDBOX}`, to: account.email, subject: 'later', text: 't', scheduled_at: at, ...extra },
  });
}

/** The shared stack's scheduler, as its functions reach it (stack() has put the stack's settings in the env). */
function schedulerOfStack() {
  stack();
  const config = loadConfig(process.env);
  return { config, scheduler: createAwsClients(config).scheduler };
}

const emailOf = async (account: TestAccount, id: string) => (await api('GET', `/emails/${id}`, { key: account.key })).body.email;

// The tests that wait for a schedule's time run at once (`it.concurrent`), each on emails of its own (the suppression
// and the usage count on accounts of their own): their waits overlap. The quick checks run after them.
describe('scheduled sends', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
  });

  it.concurrent('stores the email as scheduled and sends it at the time', async () => {
    const at = inMs(2000);
    const response = await schedule(account, at);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: expect.stringMatching(/^msg_/), status: 'scheduled' });
    expect(await emailOf(account, response.body.id)).toMatchObject({
      status: 'scheduled',
      last_event: 'scheduled',
      scheduled_at: at,
      sent_at: null,
    });
    expect(await sesMessagesFor(response.body.id)).toHaveLength(0);
    // A timeout says where the email stood (its item, the send queue's depth).
    const delivered = await waitForStatus(account, response.body.id, 'delivered');
    expect(Date.parse(delivered.sent_at)).toBeGreaterThanOrEqual(Date.parse(at));
    expect(await sesMessagesFor(response.body.id)).toHaveLength(1);
  });

  it.concurrent('does not send a scheduled email whose recipient was suppressed before its time: failed with the reason, email.failed', async () => {
    const owner = await newAccount({ plan: 'pro' });
    const response = await schedule(owner, inMs(2000));
    expect(response.status).toBe(200);
    expect((await api('POST', '/suppressions', { key: owner.key, body: { email: owner.email } })).status).toBeLessThan(300);
    const failed = await waitForStatus(owner, response.body.id, 'failed');
    expect(failed.bounce_reason).toContain('suppressed before the scheduled time');
    expect(failed.sent_at).toBeNull();
    expect(await sesMessagesFor(response.body.id)).toHaveLength(0);
  });

  it('refuses a past or unparsable time and one more than a year ahead', async () => {
    for (const at of [inMs(-60_000), 'tomorrow at noon', '2030-01-01', inMs(400 * 86_400_000)]) {
      const response = await schedule(account, at);
      expect(response.status).toBe(400);
      expect(response.body.error.details.fields[0].field).toBe('scheduled_at');
    }
    const alias = await schedule(account, undefined as unknown as string, { scheduled_at: undefined, scheduledAt: inMs(60_000) });
    expect(alias.body.status).toBe('scheduled');
  });

  it.concurrent('reschedules: nothing goes out at the old time, it goes out at the new one', async () => {
    const response = await schedule(account, inMs(1500));
    const later = inMs(4500);
    const patched = await api('PATCH', `/emails/${response.body.id}`, { key: account.key, body: { scheduled_at: later } });
    expect(patched.status).toBe(200);
    expect(patched.body.email).toMatchObject({ status: 'scheduled', scheduled_at: later });
    await sleep(3000);
    expect((await emailOf(account, response.body.id)).status).toBe('scheduled');
    expect(await sesMessagesFor(response.body.id)).toHaveLength(0);
    await waitFor(async () => (await emailOf(account, response.body.id)).status === 'delivered', 'rescheduled email delivered', 15_000);
    expect(await sesMessagesFor(response.body.id)).toHaveLength(1);
  });

  it.concurrent('cancels: cancelled_at set, its schedule removed, never sent, counted usage given back', async () => {
    // An account of its own: the pro plan's daily counter is uncapped and counted asynchronously by the
    // outbox relay, so counts from the other tests could still be arriving.
    const account = await newAccount({ plan: 'pro' });
    // A minute ahead: the usage count settles and the cancel lands long before the time however busy the
    // machine (at 1.5 s, then 5 s ahead, the counting took longer in a whole run and the cancel answered 409:
    // already sent). A cancel racing the firing is the race test's below.
    const response = await schedule(account, inMs(60_000));
    const { config, scheduler } = schedulerOfStack();
    const name = { Name: response.body.id, GroupName: config.scheduleGroup };
    expect((await scheduler.send(new GetScheduleCommand(name))).Target?.Arn).toBe(config.schedulerTargetArn);
    expect(await settledUsage(account.id, 'PLAN', 'DAY', today(), 1, 30_000)).toBe(1);
    const cancelled = await api('PATCH', `/emails/${response.body.id}`, { key: account.key, body: { cancel: true } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.email).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(String) });
    expect(await settledUsage(account.id, 'PLAN', 'DAY', today(), 0)).toBe(0);
    // Nothing left to fire it (a firing that still came would find it cancelled: the race test's case).
    await expect(scheduler.send(new GetScheduleCommand(name))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    expect((await emailOf(account, response.body.id)).status).toBe('cancelled');
    expect(await sesMessagesFor(response.body.id)).toHaveLength(0);
    const again = await api('PATCH', `/emails/${response.body.id}`, { key: account.key, body: { cancel: true } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('cancelled');
  });

  it('only changes scheduled emails, with clear errors', async () => {
    const now = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 'now', text: 't' },
    });
    const conflict = await api('PATCH', `/emails/${now.body.id}`, { key: account.key, body: { scheduled_at: inMs(60_000) } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/only scheduled emails can be rescheduled/),
    });
    const scheduled = await schedule(account, inMs(60_000));
    for (const body of [{}, { cancel: true, scheduled_at: inMs(60_000) }, { cancel: false }, { scheduled_at: 'soon' }, { subject: 'x' }]) {
      expect((await api('PATCH', `/emails/${scheduled.body.id}`, { key: account.key, body })).status).toBe(400);
    }
    const other = await newAccount();
    expect((await api('PATCH', `/emails/${scheduled.body.id}`, { key: other.key, body: { cancel: true } })).status).toBe(404);
  });

  it('refuses attachments on scheduled sends', async () => {
    const response = await schedule(account, inMs(60_000), {
      attachments: [{ filename: 'a.txt', content: Buffer.from('hi').toString('base64') }],
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields.map((f: { field: string }) => f.field)).toContain('attachments');
  });

  it.concurrent('settles cancel racing the schedule firing: either cancelled and never sent, or sent and the cancel refused', async () => {
    const at = inMs(2000);
    const ids = await Promise.all(Array.from({ length: 8 }, async () => (await schedule(account, at)).body.id as string));
    // Fire the cancels around the due time, a little spread out.
    await sleep(Math.max(0, Date.parse(at) - Date.now() - 60));
    const cancels = await Promise.all(
      ids.map(async (id, i) => {
        await sleep(i * 15);
        return api('PATCH', `/emails/${id}`, { key: account.key, body: { cancel: true } });
      }),
    );
    // Each email settles: cancelled, or sent (however slow the pipeline); then, 3 s after the cancels at
    // least, a last look for a copy that should not be there.
    const lastLook = Date.now() + 3000;
    for (const [i, id] of ids.entries()) {
      if (cancels[i]!.status !== 200) await waitFor(async () => (await sesMessagesFor(id)).length > 0, `${id} sent`, 20_000);
    }
    await sleep(Math.max(0, lastLook - Date.now()));
    for (const [i, id] of ids.entries()) {
      const email = await emailOf(account, id);
      const sent = await sesMessagesFor(id);
      if (cancels[i]!.status === 200) {
        expect(email.status).toBe('cancelled');
        expect(sent).toHaveLength(0);
      } else {
        expect(cancels[i]!.status).toBe(409);
        expect(email.status).not.toBe('cancelled');
        expect(sent).toHaveLength(1);
      }
    }
  });

  it.concurrent('settles reschedule racing the firing: sent exactly once, never before the new time', async () => {
    const at = inMs(1500);
    const ids = await Promise.all(Array.from({ length: 6 }, async () => (await schedule(account, at)).body.id as string));
    await sleep(Math.max(0, Date.parse(at) - Date.now() - 40));
    const later = inMs(2500);
    const patches = await Promise.all(ids.map((id) => api('PATCH', `/emails/${id}`, { key: account.key, body: { scheduled_at: later } })));
    // Each one sent (however slow the pipeline), then a last look for a second copy.
    for (const id of ids) await waitFor(async () => (await sesMessagesFor(id)).length > 0, `${id} sent`, 20_000);
    await sleep(Math.max(1000, Date.parse(later) + 1000 - Date.now()));
    for (const [i, id] of ids.entries()) {
      const email = await emailOf(account, id);
      expect(await sesMessagesFor(id)).toHaveLength(1);
      if (patches[i]!.status === 200) expect(Date.parse(email.sent_at)).toBeGreaterThanOrEqual(Date.parse(later));
      else expect(patches[i]!.status).toBe(409);
    }
  });
});
