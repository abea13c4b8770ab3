/**
 * The automation engine end to end on the local cloud (docs/automations.md, "Runs"): POST /events starts
 * runs of active automations, the table's stream hands each pending step to the automation-steps worker,
 * which claims it, runs it (conditions, sends through the send core, waits) and records it; POST /events
 * resumes waiting runs and cancels runs (cancel_on_events); the automation.* webhooks carry the spec's
 * fields. Exactly once per step is tested by flooding the queue with duplicates of a step's message.
 */
import { verifiedDomain } from './harness/domains';
import { hashSecret } from '#shared/domain/api-keys/secret';
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { stepEmailId } from '#shared/usecases/automations/runs/step-email';
import { EmailExists } from '#shared/usecases/send/idempotency';
import { sendEmail } from '#shared/usecases/send';
import { webhookInbox, type ReceivedWebhook } from './harness/webhook-inbox';
import { api, newAccount, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function automation(account: TestAccount, body: Record<string, unknown>, activate = true) {
  const created = await api('POST', '/automations', { key: account.key, body });
  expect(created.status).toBe(201);
  const id = created.body.automation.id as string;
  if (activate) expect((await api('POST', `/automations/${id}`, { key: account.key, body: { action: 'activate' } })).status).toBe(200);
  return id;
}

async function postEvent(account: TestAccount, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return api('POST', '/events', { key: account.key, body, headers });
}

async function runsOf(account: TestAccount, automationId: string): Promise<any[]> {
  const page = await api('GET', `/automations/${automationId}/runs?limit=100`, { key: account.key });
  expect(page.status).toBe(200);
  return page.body.runs;
}

/** The run of an automation once it reaches `status` (read from the store: strongly consistent). */
async function runReaching(automationId: string, status: string, filter: (run: any) => boolean = () => true, timeoutMs = 20_000) {
  const { services } = stack();
  return waitFor(
    async () => {
      const page = await services.runs.list(automationId, { limit: 100 });
      const matching = page.items.filter(filter);
      if (!matching.length) return undefined;
      const run = await services.runs.get(matching[0]!.id);
      return run && run.status === status ? run : undefined;
    },
    `a run of ${automationId} ${status}`,
    timeoutMs,
  );
}

/**
 * An account with a verified domain, of one test's own: for a test that lists the account's emails, which the
 * others (running at once on the shared account) would crowd off its first page.
 */
async function ownSender(plan: 'pro' | 'dedicated'): Promise<{ account: TestAccount; domain: string }> {
  const account = await newAccount({ plan, paymentMethod: true });
  return { account, domain: (await verifiedDomain(account)).name };
}

// The tests run at once (`it.concurrent`): each has automations, event names and recipients of its own (the account,
// its domain and its webhook inbox are shared, each test reading its own runs), so their waits on the runs overlap.
describe('automation engine', () => {
  let account: TestAccount;
  let domain: string;
  let hooks: () => Promise<ReceivedWebhook[]>;

  beforeAll(async () => {
    account = await newAccount({ plan: 'pro', paymentMethod: true });
    domain = (await verifiedDomain(account)).name;
    hooks = await webhookInbox(account, ['automation.started', 'automation.step_completed', 'automation.completed', 'automation.failed']);
  });

  it.concurrent('starts a run on its trigger, evaluates a condition, sends with {{event.*}} filled, completes, and reports every step by webhook', async () => {
    const event = unique('user.created');
    const id = await automation(account, {
      name: 'Welcome',
      trigger: { event },
      steps: [
        { key: 'is-pro', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'pro' },
        {
          key: 'welcome',
          type: 'send_email',
          from: `Team <team@${domain}>`,
          subject: 'Welcome {{event.data.first_name}}',
          html: '<p>Hi {{event.data.first_name}}</p>',
          text: 'Hi {{event.data.first_name}}',
        },
      ],
    });
    const to = `${unique('ada')}@example.com`;
    const accepted = await postEvent(account, { name: event, user_id: 'u-1', email: to, data: { plan: 'pro', first_name: '<Ada>' } });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ matched_automations: 1, resumed_runs: 0, cancelled_runs: 0 });
    expect(accepted.body.event).toMatchObject({
      name: event,
      user_id: 'u-1',
      email: to,
      data: { plan: 'pro', first_name: '<Ada>' },
      source: 'api',
    });
    expect(accepted.body.event.id).toMatch(/^ae_[0-9A-Z]{26}$/);

    const run = await runReaching(id, 'completed');
    expect(run.history.map((step) => [step.key, step.status])).toEqual([
      ['is-pro', 'completed'],
      ['welcome', 'completed'],
    ]);
    const emailId = run.history[1]!.output!.email_id as string;
    const email = await waitForStatus(account, emailId, 'delivered');
    expect(email).toMatchObject({ to: [to], subject: 'Welcome <Ada>' });

    // The runs API shows the same run.
    const listed = await runsOf(account, id);
    expect(listed.map((r) => r.id)).toEqual([run.id]);

    // Webhooks: started, one step_completed per step, completed; every field of the spec's payload.
    const received = await waitFor(async () => {
      const mine = (await hooks()).filter((hook) => hook.data.run_id === run.id);
      return mine.length >= 4 ? mine : undefined;
    }, 'four automation webhooks');
    const byType = (type: string) => received.filter((hook) => hook.type === type);
    expect(byType('automation.started')).toHaveLength(1);
    expect(
      byType('automation.step_completed')
        .map((hook) => hook.data.step_index)
        .sort(),
    ).toEqual([0, 1]);
    expect(byType('automation.completed')).toHaveLength(1);
    for (const hook of received) {
      expect(Object.keys(hook.data)).toEqual(
        expect.arrayContaining(['automation_id', 'automation_name', 'run_id', 'status', 'event_name', 'step_index', 'step_type', 'error']),
      );
      expect(hook.data).toMatchObject({ automation_id: id, automation_name: 'Welcome', run_id: run.id, event_name: event, error: null });
    }
    expect(byType('automation.step_completed')[0]!.data.status).toBe('running');
    expect(byType('automation.completed')[0]!.data).toMatchObject({ status: 'completed', step_index: 1, step_type: 'send_email' });
  });

  it.concurrent('a false condition ends the run as completed without sending', async () => {
    const event = unique('trial.started');
    const id = await automation(account, {
      name: 'Pro only',
      trigger: { event },
      steps: [
        { key: 'is-pro', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'pro' },
        { key: 'send', type: 'send_email', from: `team@${domain}`, subject: 'x', text: 'x' },
      ],
    });
    expect(
      (await postEvent(account, { name: event, email: `${unique('free')}@example.com`, data: { plan: 'free' } })).body.matched_automations,
    ).toBe(1);
    const run = await runReaching(id, 'completed');
    expect(run.history).toHaveLength(1);
    expect(run.history[0]).toMatchObject({ key: 'is-pro', status: 'completed', output: { result: false } });
  });

  it.concurrent("wait_for_event resumes on the same user's event (not another user's), then sends; cancel_on_events cancels the user's running runs", async () => {
    const start = unique('signup');
    const verified = unique('email.verified');
    const deleted = unique('account.deleted');
    const id = await automation(account, {
      name: 'Nudge',
      trigger: { event: start, cancel_on_events: [deleted] },
      steps: [
        { key: 'wait', type: 'wait_for_event', event: verified, timeout: '7 days' },
        { key: 'thanks', type: 'send_email', from: `team@${domain}`, subject: 'Thanks for verifying', text: 'ok' },
      ],
    });
    const alice = `${unique('alice')}@example.com`;
    const bob = `${unique('bob')}@example.com`;
    await postEvent(account, { name: start, user_id: 'alice', email: alice });
    await postEvent(account, { name: start, user_id: 'bob', email: bob });
    await waitFor(async () => {
      const runs = await runsOf(account, id);
      return runs.length === 2 && runs.every((r) => r.current_step?.state === 'waiting') ? runs : undefined;
    }, 'two waiting runs');

    // Another user's event resumes nothing; alice's resumes hers.
    expect((await postEvent(account, { name: verified, user_id: 'carol' })).body.resumed_runs).toBe(0);
    const resumed = await postEvent(account, { name: verified, user_id: 'alice' });
    expect(resumed.body).toMatchObject({ matched_automations: 0, resumed_runs: 1, cancelled_runs: 0 });
    const aliceRun = await runReaching(id, 'completed', (run) => run.event.user_id === 'alice');
    expect(aliceRun.history.map((step) => step.key)).toEqual(['wait', 'thanks']);
    expect(aliceRun.history[0]!.output).toMatchObject({ event: verified, timed_out: false });
    await waitForStatus(account, aliceRun.history[1]!.output!.email_id as string, 'delivered');

    // Bob's account is deleted: his waiting run is cancelled and never sends.
    const cancelled = await postEvent(account, { name: deleted, user_id: 'bob' });
    expect(cancelled.body).toMatchObject({ cancelled_runs: 1, resumed_runs: 0 });
    const bobRun = await runReaching(id, 'cancelled', (run) => run.event.user_id === 'bob');
    expect(bobRun.history).toEqual([]);
    // A late verification finds nothing to resume.
    expect((await postEvent(account, { name: verified, user_id: 'bob' })).body.resumed_runs).toBe(0);
  });

  it.concurrent('an Idempotency-Key replays the first answer and starts one run; the key with another body is 409', async () => {
    const event = unique('order.paid');
    const id = await automation(account, {
      name: 'Receipt',
      trigger: { event },
      steps: [{ key: 'c', type: 'condition', field: 'event.name', operator: 'exists' }],
    });
    const key = unique('idem');
    const body = { name: event, user_id: 'u-9', data: { total: 12 } };
    const answers = await Promise.all([
      postEvent(account, body, { 'idempotency-key': key }),
      postEvent(account, body, { 'idempotency-key': key }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([202, 202]);
    expect(answers[1]!.body.event.id).toBe(answers[0]!.body.event.id);
    const again = await postEvent(account, body, { 'idempotency-key': key });
    expect(again.status).toBe(202);
    expect(again.body.event).toEqual(answers[0]!.body.event);
    expect(again.body.matched_automations).toBe(1);
    await runReaching(id, 'completed');
    expect(await runsOf(account, id)).toHaveLength(1);
    const conflict = await postEvent(account, { ...body, data: { total: 13 } }, { 'idempotency-key': key });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');
  });

  it.concurrent('a send refused by the sending rules fails its run with automation.failed; other runs go on', async () => {
    const event = unique('invite');
    const id = await automation(account, {
      name: 'Invite',
      trigger: { event },
      steps: [{ key: 'invite', type: 'send_email', from: `team@${domain}`, subject: 'Join us', text: 'hi' }],
    });
    const blocked = `${unique('blocked')}@example.com`;
    expect((await api('POST', '/suppressions', { key: account.key, body: { email: blocked } })).status).toBeLessThan(300);
    const fine = `${unique('fine')}@example.com`;
    await postEvent(account, { name: event, email: blocked });
    await postEvent(account, { name: event, email: fine });
    const failed = await runReaching(id, 'failed', (run) => run.event.email === blocked);
    expect(failed.error).toMatch(/suppress/i);
    const completed = await runReaching(id, 'completed', (run) => run.event.email === fine);
    await waitForStatus(account, completed.history[0]!.output!.email_id as string, 'delivered');
    const failures = await waitFor(async () => {
      const mine = (await hooks()).filter((hook) => hook.type === 'automation.failed' && hook.data.run_id === failed.id);
      return mine.length ? mine : undefined;
    }, 'automation.failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.data).toMatchObject({ automation_id: id, status: 'failed', step_index: 0, step_type: 'send_email' });
    expect(failures[0]!.data.error).toMatch(/suppress/i);
  });

  it.concurrent('exactly once per step: 20 duplicate messages of a step (and of its completion) send one email', async () => {
    const { services } = stack();
    const { account: own, domain: ownDomain } = await ownSender('pro');
    const event = unique('dup');
    const id = await automation(own, {
      name: 'Dup',
      trigger: { event },
      steps: [
        { key: 'one', type: 'send_email', from: `team@${ownDomain}`, subject: 'Once', text: 'once' },
        { key: 'two', type: 'send_email', from: `team@${ownDomain}`, subject: 'Twice?', text: 'no' },
      ],
    });
    const to = `${unique('dup')}@example.com`;
    const accepted = await postEvent(own, { name: event, email: to });
    // Flood the queue while the outbox's own message is in flight.
    const started = await waitFor(async () => (await services.runs.list(id, { limit: 1 })).items[0], 'the run');
    const flood = Array.from({ length: 20 }, (_, i) => ({ run_id: started.id, step_index: i % 2 }));
    await services.stepQueue.enqueueAll(flood);
    const run = await runReaching(id, 'completed');
    expect(accepted.status).toBe(202);
    await services.stepQueue.enqueueAll(flood);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const final = await services.runs.get(run.id);
    expect(final!.history.map((step) => step.key)).toEqual(['one', 'two']);
    // Each step's email has the id derived from (run, step) and the step's start: the guard against a second send.
    expect(final!.history.map((step) => step.output?.email_id)).toEqual(
      final!.history.map((step) => stepEmailId(run.id, step.key, step.started_at)),
    );
    const emails = await api('GET', '/emails?limit=100', { key: own.key });
    expect(
      emails.body.emails
        .filter((email: any) => email.to.includes(to))
        .map((email: any) => email.subject)
        .sort(),
    ).toEqual(['Once', 'Twice?']);
  });

  it.concurrent('sends racing under one caller-chosen email id store one email; the others are refused (EmailExists), storing nothing', async () => {
    const { services } = stack();
    // A capped plan accepts in a transaction (the email beside its usage reservations), an uncapped one with one PutItem.
    const capped = await ownSender('pro');
    const uncapped = await ownSender('dedicated');
    for (const [sender, from] of [
      [capped.account, `team@${capped.domain}`],
      [uncapped.account, `team@${uncapped.domain}`],
    ] as const) {
      const emailId = stepEmailId('run_01JD8Z6X4Q2T9V3N5M7K1H0G8F', unique('step'), new Date().toISOString());
      const to = `${unique('race')}@example.com`;
      const request = sendRequestSchema.parse({ from, to: [to], subject: 'Raced', text: 'once' });
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => sendEmail(services, { apiKeyHash: hashSecret(sender.key) }, request, { emailId })),
      );
      expect(results.filter((result) => result.status === 'fulfilled').map((result) => result.value)).toEqual([
        { id: emailId, status: 'sent' },
      ]);
      for (const result of results.filter((result) => result.status === 'rejected')) expect(result.reason).toBeInstanceOf(EmailExists);
      await waitForStatus(sender, emailId, 'delivered');
      const emails = await api('GET', '/emails?limit=100', { key: sender.key });
      expect(emails.body.emails.filter((email: any) => email.to.includes(to)).map((email: any) => email.id)).toEqual([emailId]);
    }
  });

  it.concurrent('many runs at once: 150 events start 150 runs that all complete, one email each', async () => {
    const event = unique('bulk');
    const id = await automation(account, {
      name: 'Bulk',
      trigger: { event },
      steps: [{ key: 'hello', type: 'send_email', from: `team@${domain}`, subject: 'Bulk {{event.user_id}}', text: 'hi' }],
    });
    const count = 150;
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        postEvent(account, { name: event, user_id: `bulk-${i}`, email: `bulk-${i}-${event}@example.com` }),
      ),
    );
    expect(answers.every((answer) => answer.status === 202 && answer.body.matched_automations === 1)).toBe(true);
    const { services } = stack();
    const done = await waitFor(
      async () => {
        const runs: any[] = [];
        let cursor: string | undefined;
        do {
          const page = await services.runs.list(id, { limit: 100, cursor });
          runs.push(...page.items);
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        return runs.length === count && runs.every((run) => run.status === 'completed') ? runs : undefined;
      },
      `${count} completed runs`,
      60_000,
      500,
    );
    const emailIds = new Set(done.map((run) => run.history[0].output.email_id));
    expect(emailIds.size).toBe(count);
  });

  it.concurrent('refuses dry runs for API keys, bad events and tenant keys', async () => {
    const id = await automation(
      account,
      { name: 'Dry', trigger: { event: 'x.y' }, steps: [{ key: 'c', type: 'condition', field: 'event.name', operator: 'exists' }] },
      false,
    );
    const dry = await postEvent(account, { name: 'x.y', dry_run: true, automation_id: id });
    expect(dry.status).toBe(403);
    expect(dry.body.error.message).toMatch(/dashboard/);
    const huge = await postEvent(account, { name: 'x.y', data: { blob: 'x'.repeat(1024 * 1024) } });
    expect([400, 413]).toContain(huge.status);
    expect((await postEvent(account, { user_id: 'u' })).status).toBe(400);
    expect((await postEvent(account, { name: 'has space' })).status).toBe(400);
    expect((await postEvent(account, { name: 'x.y', color: 'red' })).body.error.details.fields[0].field).toBe('color');
  });
});
