/**
 * dryRunAutomation (shared/usecases/automations/automation-dry-run.ts) over in-memory automations and published
 * templates: any status runs, another account's automation is a 404, send steps are previewed exactly as
 * the run would build them (placeholders, HTML escaping, templates), and their errors fail the dry run.
 */
import type { Account } from '#shared/domain/accounts/account';
import type { Automation, Step } from '#shared/domain/automations/automation';
import { AppError, NotFoundError, ServiceUnavailableError } from '#shared/domain/errors';
import type { PublishedTemplate } from '#shared/domain/templates/template';
import type { GetPublishedOutcome } from '#shared/adapters/store/templates';
import { dryRunAutomation, type AutomationDryRunDeps } from '#shared/usecases/automations/automation-dry-run';
import type { Principal } from '#shared/usecases/access/principal';

const AT = '2026-11-23T10:00:00.000Z';
const AUTO_ID = 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8F';
const OTHER_ID = 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8G';

function principal(accountId = 'acc_1', tenant: string | null = null): Principal {
  const account = {
    id: accountId,
    email: 'o@acme.test',
    plan: 'pro',
    payment_method: true,
    tenants_enabled: true,
    created_at: AT,
    updated_at: AT,
  } as Account;
  return { account, credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant, allowed_domains: null } };
}

function automation(steps: Step[], status: Automation['status'] = 'draft', over: Partial<Automation> = {}): Automation {
  return {
    id: AUTO_ID,
    account_id: 'acc_1',
    name: 'Welcome series',
    status,
    trigger: { event: 'user.created', cancel_on_events: [] },
    steps,
    version: 3,
    created_at: AT,
    updated_at: AT,
    activated_at: null,
    allowed_domains: null,
    ...over,
  };
}

const welcome: PublishedTemplate = {
  id: 'tpl_1',
  alias: 'welcome',
  version: 4,
  subject: 'Welcome, {{name}}!',
  html: '<h1>Hi {{name}}</h1><p>{{company}}</p><a href="{{unsubscribe_url}}">unsubscribe</a>',
  text: 'Hi {{name}} of {{company}}',
  from: 'Acme <hello@acme.test>',
  reply_to: ['help@acme.test'],
  category: 'product',
  unsubscribe_enabled: true,
  variables: [
    { key: 'name', type: 'string' },
    { key: 'company', type: 'string', fallback_value: 'your company' },
  ],
};

function world(stored: Automation[], templates: Record<string, GetPublishedOutcome> = { welcome: { kind: 'found', template: welcome } }) {
  const reads = { automations: [] as string[], templates: [] as string[] };
  const deps: AutomationDryRunDeps = {
    automations: {
      get: async (accountId, id) => {
        reads.automations.push(`${accountId}/${id}`);
        const found = stored.find((item) => item.id === id && item.account_id === accountId);
        return found ? (JSON.parse(JSON.stringify(found)) as Automation) : null;
      },
    },
    publishedTemplates: {
      getPublished: async (accountId, alias) => {
        reads.templates.push(`${accountId}/${alias}`);
        return templates[alias] ?? { kind: 'not_found' };
      },
    },
  };
  return { deps, reads };
}

const event = {
  name: 'user.created',
  user_id: '42',
  email: 'ada@example.com',
  data: { first_name: 'Ada', company: '<Acme & "Co">', plan: 'free', manager: 'boss@acme.test', team: 'ops' },
};

const inline: Step = {
  key: 'hello',
  type: 'send_email',
  to: ['{{event.email}}', '{{ event.data.manager }}'],
  from: 'Acme <{{event.data.team}}@acme.test>',
  reply_to: ['{{event.data.manager}}'],
  subject: 'Hi {{event.data.first_name}} of {{event.data.company}}',
  html: '<p>{{event.data.company}} / {{event.data.missing_key}}</p>{{unsubscribe_url}}',
  text: '{{event.data.company}} ({{event.user_id}}, {{event.name}})',
  tenant: 'tenant-{{event.data.team}}',
  tags: [{ name: 'plan', value: '{{event.data.plan}}' }],
  category: 'newsletter',
};

describe('dryRunAutomation', () => {
  it('previews an inline send exactly as the run builds it: placeholders filled, html escaped, missing listed', async () => {
    const { deps, reads } = world([automation([inline])]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, event);
    expect(result).toEqual({
      dry_run: true,
      automation: { id: AUTO_ID, name: 'Welcome series', status: 'draft', version: 3 },
      event,
      matches_trigger: true,
      status: 'completed',
      ended_early: false,
      error: null,
      steps: [
        {
          index: 0,
          key: 'hello',
          type: 'send_email',
          status: 'stubbed',
          output: {
            to: ['ada@example.com', 'boss@acme.test'],
            from: 'Acme <ops@acme.test>',
            reply_to: ['boss@acme.test'],
            subject: 'Hi Ada of <Acme & "Co">',
            html: '<p>&lt;Acme &amp; &quot;Co&quot;&gt; / </p>{{unsubscribe_url}}',
            text: '<Acme & "Co"> (42, user.created)',
            category: 'newsletter',
            tenant: 'tenant-ops',
            tags: [{ name: 'plan', value: 'free' }],
            missing: ['event.data.missing_key'],
          },
          error: null,
        },
      ],
    });
    expect(reads.templates).toEqual([]);
  });

  it('to defaults to the event email; without a category the send default (transactional)', async () => {
    const step = { key: 'plain', type: 'send_email', to: [], from: 'a@acme.test', subject: 'Hi', text: 'Hello' } as Step;
    const { deps } = world([automation([step])]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, event);
    expect(result.steps[0]!.output).toEqual({
      to: ['ada@example.com'],
      from: 'a@acme.test',
      subject: 'Hi',
      text: 'Hello',
      category: 'transactional',
      missing: [],
    });
  });

  it('an event without email and the default to: failed at that step, no recipient', async () => {
    const step = { key: 'hello', type: 'send_email', to: ['{{event.email}}'], from: 'a@acme.test', subject: 'Hi', text: 'Hello' } as Step;
    const { deps } = world([
      automation([{ key: 'pause', type: 'delay', duration: '1 day' }, step, { key: 'later', type: 'delay', duration: '2 days' }]),
    ]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, { ...event, email: null });
    const error = "no recipient: the step's to ({{event.email}}) is empty for this event";
    expect(result).toMatchObject({ status: 'failed', ended_early: false, error });
    expect(result.steps).toEqual([
      { index: 0, key: 'pause', type: 'delay', status: 'skipped', output: { duration: '1 day', would_wait_ms: 86_400_000 }, error: null },
      { index: 1, key: 'hello', type: 'send_email', status: 'failed', output: null, error },
    ]);
  });

  it("an address that is not one once filled: failed with the send schema's problem", async () => {
    const step = {
      key: 'hello',
      type: 'send_email',
      to: ['{{event.data.first_name}}'],
      from: 'a@acme.test',
      subject: 'Hi',
      text: 'Hello',
    } as Step;
    const { deps } = world([automation([step])]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, event);
    expect(result.status).toBe('failed');
    expect(result.error).toBe(
      'invalid email for this event: to.0: "Ada" is not a valid email address: write name@example.com or "Name <name@example.com>"',
    );
  });

  it('a template step is rendered from its published version with the filled variables', async () => {
    const step = {
      key: 'welcome',
      type: 'send_email',
      to: ['{{event.email}}'],
      template: { id: 'welcome', variables: { name: '{{event.data.first_name}} <3', company: '{{event.data.company}}' } },
    } as Step;
    const { deps, reads } = world([automation([step, { ...step, key: 'again' }])]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, event);
    const output = {
      to: ['ada@example.com'],
      from: 'Acme <hello@acme.test>',
      reply_to: ['help@acme.test'],
      subject: 'Welcome, Ada <3!',
      html: '<h1>Hi Ada &lt;3</h1><p>&lt;Acme &amp; &quot;Co&quot;&gt;</p><a href="{{unsubscribe_url}}">unsubscribe</a>',
      text: 'Hi Ada <3 of <Acme & "Co">',
      template: { id: 'welcome', version: 4 },
      category: 'product',
      missing: [],
    };
    expect(result).toMatchObject({ status: 'completed', ended_early: false, error: null });
    expect(result.steps).toEqual([
      { index: 0, key: 'welcome', type: 'send_email', status: 'stubbed', output, error: null },
      { index: 1, key: 'again', type: 'send_email', status: 'stubbed', output, error: null },
    ]);
    // One read per alias, of the caller's account.
    expect(reads.templates).toEqual(['acc_1/welcome']);
  });

  it("a template variable's fallback is used; the step's own from and subject override the template", async () => {
    const step = {
      key: 'welcome',
      type: 'send_email',
      to: ['{{event.email}}'],
      from: 'Team <team@acme.test>',
      subject: 'For {{event.data.first_name}}',
      template: { id: 'welcome', variables: { name: 'Ada' } },
    } as Step;
    const { deps } = world([automation([step])]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, event);
    expect(result.steps[0]!.output).toMatchObject({ from: 'Team <team@acme.test>', subject: 'For Ada', text: 'Hi Ada of your company' });
  });

  it('a missing template fails the dry run at that step with the error the run would record', async () => {
    const steps = [
      { key: 'check', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'free' },
      { key: 'nudge', type: 'send_email', to: ['{{event.email}}'], template: { id: 'nope' } },
      { key: 'after', type: 'delay', duration: '1 day' },
    ] as Step[];
    const { deps } = world([automation(steps)]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, event);
    const error = 'validation_error: Template "nope" does not exist. Create it with POST /templates.';
    expect(result).toMatchObject({ status: 'failed', ended_early: false, error });
    expect(result.steps).toEqual([
      {
        index: 0,
        key: 'check',
        type: 'condition',
        status: 'completed',
        output: { result: true, trace: ['event.data.plan eq "free": "free" -> true'] },
        error: null,
      },
      { index: 1, key: 'nudge', type: 'send_email', status: 'failed', output: null, error },
    ]);
  });

  it('an unpublished template fails there too', async () => {
    const step = { key: 'nudge', type: 'send_email', to: ['{{event.email}}'], template: { id: 'draft-only' } } as Step;
    const { deps } = world([automation([step])], { 'draft-only': { kind: 'not_published' } });
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, event);
    expect(result.error).toBe(
      'validation_error: Template "draft-only" has no published version yet. Publish it with POST /templates/draft-only/publish.',
    );
  });

  it('a required template variable without a value fails there', async () => {
    const step = {
      key: 'welcome',
      type: 'send_email',
      to: ['{{event.email}}'],
      template: { id: 'welcome', variables: { company: 'X' } },
    } as Step;
    const { deps } = world([automation([step])]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, event);
    expect(result.status).toBe('failed');
    expect(result.error).toBe(
      'validation_error: Template "welcome" needs a value for "name" (no fallback_value is declared). Pass it in template.variables.',
    );
  });

  it('an error of a step the walk never reaches is not shown (a false condition ends before it)', async () => {
    const steps = [
      { key: 'is-pro', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'pro' },
      { key: 'nudge', type: 'send_email', to: ['{{event.email}}'], template: { id: 'nope' } },
    ] as Step[];
    const { deps } = world([automation(steps)]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, event);
    expect(result).toMatchObject({ status: 'completed', ended_early: true, error: null });
    expect(result.steps.map((step) => step.key)).toEqual(['is-pro']);
  });

  it('waits are assumed received and delays skipped, on_timeout irrelevant', async () => {
    const steps = [
      { key: 'upgraded', type: 'wait_for_event', event: 'user.upgraded', timeout: '30 days', on_timeout: 'end' },
      { key: 'later', type: 'delay', duration: 'PT30M' },
      { key: 'thanks', type: 'send_email', to: ['{{event.email}}'], from: 'a@acme.test', subject: 'Thanks', text: 'T' },
    ] as Step[];
    const { deps } = world([automation(steps, 'active')]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, event);
    expect(result.steps.map(({ key, status, output }) => ({ key, status, output }))).toEqual([
      { key: 'upgraded', status: 'skipped', output: { event: 'user.upgraded', timeout: '30 days', assumed: 'event_received' } },
      { key: 'later', status: 'skipped', output: { duration: 'PT30M', would_wait_ms: 1_800_000 } },
      {
        key: 'thanks',
        status: 'stubbed',
        output: { to: ['ada@example.com'], from: 'a@acme.test', subject: 'Thanks', text: 'T', category: 'transactional', missing: [] },
      },
    ]);
    expect(result.status).toBe('completed');
  });

  it.each(['draft', 'paused', 'active'] as const)('a %s automation runs', async (status) => {
    const step = { key: 'hello', type: 'send_email', to: [], from: 'a@acme.test', subject: 'Hi', text: 'Hello' } as Step;
    const { deps } = world([automation([step], status, status === 'draft' ? {} : { activated_at: AT })]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, event);
    expect(result.automation.status).toBe(status);
    expect(result).toMatchObject({ status: 'completed', steps: [{ key: 'hello', status: 'stubbed' }] });
  });

  it('an event that is not the trigger still runs it (matches_trigger false)', async () => {
    const { deps } = world([automation([{ key: 'd', type: 'delay', duration: '1 hour' }])]);
    const result = await dryRunAutomation(deps, principal(), AUTO_ID, { ...event, name: 'user.other' });
    expect(result).toMatchObject({ matches_trigger: false, status: 'completed', event: { name: 'user.other' } });
  });

  it("another account's automation, a missing one and a malformed id: 404 not_found (as the automations API)", async () => {
    const { deps, reads } = world([
      automation([{ key: 'd', type: 'delay', duration: '1 hour' }], 'active', { id: OTHER_ID, account_id: 'acc_2' }),
    ]);
    for (const id of [OTHER_ID, AUTO_ID, 'auto_nope']) {
      const error = await dryRunAutomation(deps, principal('acc_1'), id, event).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'not_found', message: `Automation ${id} was not found.` });
    }
    // The malformed id is never read; the others are read under the caller's account only.
    expect(reads.automations).toEqual([`acc_1/${OTHER_ID}`, `acc_1/${AUTO_ID}`]);
    await expect(dryRunAutomation(deps, principal('acc_2'), OTHER_ID, event)).resolves.toMatchObject({ status: 'completed' });
  });

  it("a key limited to a tenant: 403 before anything is read (automations are the account's)", async () => {
    const { deps, reads } = world([automation([{ key: 'd', type: 'delay', duration: '1 hour' }])]);
    await expect(dryRunAutomation(deps, principal('acc_1', 'tenant_1'), AUTO_ID, event)).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect(reads.automations).toEqual([]);
  });

  it("a store failure reading a template is the request's error (5xx), not the step's", async () => {
    const step = { key: 'welcome', type: 'send_email', to: ['{{event.email}}'], template: { id: 'welcome' } } as Step;
    const { deps } = world([automation([step])]);
    deps.publishedTemplates.getPublished = async () => {
      throw new ServiceUnavailableError('store down');
    };
    const error = await dryRunAutomation(deps, principal(), AUTO_ID, event).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 503 });
  });
});
