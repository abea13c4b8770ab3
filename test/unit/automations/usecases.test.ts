/** Automation use cases over an in-memory repository: drafts, versions, status changes, races, tenant keys. */
import type { Account } from '#shared/domain/accounts/account';
import type { Automation } from '#shared/domain/automations/automation';
import { createAutomationSchema, updateAutomationSchema } from '#shared/domain/automations/schemas';
import type { Page } from '#shared/adapters/store/cursor';
import type { SaveAutomationOutcome } from '#shared/adapters/store/automations';
import {
  changeAutomationStatus,
  createAutomation,
  deleteAutomation,
  updateAutomation,
  type AutomationDeps,
} from '#shared/usecases/automations/automations';
import type { Principal } from '#shared/usecases/access/principal';

const NOW = new Date('2026-11-23T10:00:00.000Z');

function principal(tenant: string | null = null, allowedDomains: string[] | null = null): Principal {
  const account = {
    id: 'acc_1',
    email: 'o@example.com',
    plan: 'pro',
    payment_method: true,
    tenants_enabled: true,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
  } as Account;
  return { account, credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant, allowed_domains: allowedDomains } };
}

/** The repository's contract in memory: writes conditional on the version and status read; `beforeWrite` races them. */
class FakeAutomations {
  readonly items = new Map<string, Automation>();
  beforeWrite: (() => void) | null = null;
  writes = 0;
  async create(automation: Automation) {
    this.items.set(automation.id, structuredClone(automation));
    return { kind: 'created' as const };
  }
  async get(_accountId: string, id: string) {
    const found = this.items.get(id);
    return found ? structuredClone(found) : null;
  }
  async list(): Promise<Page<Automation>> {
    return { items: [...this.items.values()], next_cursor: null };
  }
  async save(current: Automation, next: Automation): Promise<SaveAutomationOutcome> {
    this.beforeWrite?.();
    this.writes++;
    const stored = this.items.get(current.id);
    if (!stored || stored.version !== current.version || stored.status !== current.status) return { kind: 'conflict' };
    this.items.set(next.id, structuredClone(next));
    return { kind: 'saved', automation: next };
  }
  async delete(current: Automation): Promise<'deleted' | 'conflict'> {
    const stored = this.items.get(current.id);
    if (!stored || stored.version !== current.version || stored.status !== current.status) return 'conflict';
    this.items.delete(current.id);
    return 'deleted';
  }
}

const body = {
  name: 'Welcome',
  trigger: { event: 'user.created' },
  steps: [
    { key: 'hello', type: 'send_email', from: 'a@acme.test', subject: 'Hi {{event.data.name}}', text: 'Welcome' },
    { key: 'later', type: 'delay', duration: '2 days' },
  ],
};

function world() {
  const repo = new FakeAutomations();
  const deps: AutomationDeps = { automations: repo, clock: { now: () => NOW } };
  return { repo, deps };
}

describe('automation use cases', () => {
  it('creates a draft at version 1; with status active it is activated at creation', async () => {
    const { deps } = world();
    const draft = await createAutomation(deps, principal(), createAutomationSchema.parse(body));
    expect(draft).toMatchObject({ status: 'draft', version: 1, activated_at: null, account_id: 'acc_1' });
    const active = await createAutomation(deps, principal(), createAutomationSchema.parse({ ...body, status: 'active' }));
    expect(active).toMatchObject({ status: 'active', activated_at: NOW.toISOString() });
  });

  it('an edit bumps the version; the same definition again writes nothing', async () => {
    const { deps, repo } = world();
    const created = await createAutomation(deps, principal(), createAutomationSchema.parse(body));
    const renamed = await updateAutomation(deps, principal(), created.id, updateAutomationSchema.parse({ name: 'Welcome v2' }));
    expect(renamed).toMatchObject({ name: 'Welcome v2', version: 2 });
    const writes = repo.writes;
    expect(await updateAutomation(deps, principal(), created.id, updateAutomationSchema.parse({ name: 'Welcome v2' }))).toMatchObject({
      version: 2,
    });
    expect(repo.writes).toBe(writes);
  });

  it('an edit racing an activation re-reads and keeps both', async () => {
    const { deps, repo } = world();
    const created = await createAutomation(deps, principal(), createAutomationSchema.parse(body));
    let raced = false;
    repo.beforeWrite = () => {
      if (raced) return;
      raced = true;
      const stored = repo.items.get(created.id)!;
      repo.items.set(created.id, { ...stored, status: 'active', activated_at: NOW.toISOString() });
    };
    const edited = await updateAutomation(deps, principal(), created.id, updateAutomationSchema.parse({ name: 'Edited' }));
    expect(edited).toMatchObject({ name: 'Edited', status: 'active', version: 2 });
  });

  it('gives up with 409 when every attempt loses its race', async () => {
    const { deps, repo } = world();
    const created = await createAutomation(deps, principal(), createAutomationSchema.parse(body));
    repo.beforeWrite = () => {
      const stored = repo.items.get(created.id)!;
      repo.items.set(created.id, { ...stored, version: stored.version + 1 });
    };
    await expect(updateAutomation(deps, principal(), created.id, updateAutomationSchema.parse({ name: 'Never' }))).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
    });
  });

  it('activate is idempotent; pausing a draft is 409; pause then activate again', async () => {
    const { deps, repo } = world();
    const created = await createAutomation(deps, principal(), createAutomationSchema.parse(body));
    await expect(changeAutomationStatus(deps, principal(), created.id, 'pause')).rejects.toMatchObject({ status: 409 });
    const active = await changeAutomationStatus(deps, principal(), created.id, 'activate');
    expect(active.status).toBe('active');
    const writes = repo.writes;
    expect((await changeAutomationStatus(deps, principal(), created.id, 'activate')).status).toBe('active');
    expect(repo.writes).toBe(writes);
    expect((await changeAutomationStatus(deps, principal(), created.id, 'pause')).status).toBe('paused');
    expect((await changeAutomationStatus(deps, principal(), created.id, 'activate')).status).toBe('active');
  });

  it('refuses a tenant-limited key (403) and answers 404 for an unknown or malformed id', async () => {
    const { deps } = world();
    await expect(createAutomation(deps, principal('ten_1'), createAutomationSchema.parse(body))).rejects.toMatchObject({ status: 403 });
    await expect(deleteAutomation(deps, principal(), 'auto_01JD0000000000000000000000')).rejects.toMatchObject({ status: 404 });
    await expect(deleteAutomation(deps, principal(), 'not-an-id')).rejects.toMatchObject({ status: 404 });
  });

  it('validates the merged definition: a PATCH of steps alone that closes a cycle is a 400 naming the step, and nothing is written', async () => {
    const { deps, repo } = world();
    const created = await createAutomation(deps, principal(), createAutomationSchema.parse(body));
    const writes = repo.writes;
    const cycle = updateAutomationSchema.parse({ steps: [{ key: 'a', type: 'delay', duration: '2 days', next: 'a' }] });
    const refused = updateAutomation(deps, principal(), created.id, cycle);
    await expect(refused).rejects.toMatchObject({ status: 400, code: 'validation_error' });
    const fields = ((await refused.catch((error) => error)) as { details: { fields: { field: string }[] } }).details.fields.map(
      (f) => f.field,
    );
    expect(fields.some((field) => field.startsWith('steps.0'))).toBe(true);
    expect(repo.writes).toBe(writes);
    expect(repo.items.get(created.id)!.version).toBe(1);
  });

  describe('reach: the domains of whoever created or last changed it', () => {
    const limited = () => principal(null, ['acme.test']);
    const sendFrom = (from: string) => ({ ...body, steps: [{ key: 'hello', type: 'send_email', from, subject: 'Hi', text: 'Welcome' }] });

    it("records the creator's allowed_domains (null for an unlimited key)", async () => {
      const { deps } = world();
      expect((await createAutomation(deps, limited(), createAutomationSchema.parse(body))).allowed_domains).toEqual(['acme.test']);
      expect((await createAutomation(deps, principal(), createAutomationSchema.parse(body))).allowed_domains).toBeNull();
    });

    it('refuses a limited key a step written to send from another domain (403 domain_not_allowed naming the step), and writes nothing', async () => {
      const { deps, repo } = world();
      const refused = createAutomation(deps, limited(), createAutomationSchema.parse(sendFrom('Boss <boss@elsewhere.test>')));
      await expect(refused).rejects.toMatchObject({
        status: 403,
        code: 'domain_not_allowed',
        details: { field: 'steps.0.from', domains: ['elsewhere.test'], allowed_domains: ['acme.test'] },
      });
      expect(repo.items.size).toBe(0);
      // A placeholder's domain is known only at run time: saved, and the run keeps the reach.
      const templated = await createAutomation(deps, limited(), createAutomationSchema.parse(sendFrom('{{event.data.sender}}')));
      expect(templated.allowed_domains).toEqual(['acme.test']);
    });

    it("an edit records the editor's reach; a limited editor cannot widen the steps beyond it", async () => {
      const { deps } = world();
      const created = await createAutomation(deps, principal(), createAutomationSchema.parse(sendFrom('boss@elsewhere.test')));
      await expect(updateAutomation(deps, limited(), created.id, updateAutomationSchema.parse({ name: 'Renamed' }))).rejects.toMatchObject({
        status: 403,
        code: 'domain_not_allowed',
      });
      const narrowed = await updateAutomation(
        deps,
        limited(),
        created.id,
        updateAutomationSchema.parse({ steps: sendFrom('hello@acme.test').steps }),
      );
      expect(narrowed).toMatchObject({ version: 2, allowed_domains: ['acme.test'] });
      const widened = await updateAutomation(deps, principal(), created.id, updateAutomationSchema.parse({ name: 'Everyone' }));
      expect(widened).toMatchObject({ version: 3, allowed_domains: null });
      // Activating and pausing leave it: they change no definition.
      const narrowedAgain = await updateAutomation(
        deps,
        limited(),
        created.id,
        updateAutomationSchema.parse({ name: 'Narrow', steps: sendFrom('hello@acme.test').steps }),
      );
      expect(narrowedAgain.allowed_domains).toEqual(['acme.test']);
      expect((await changeAutomationStatus(deps, principal(), created.id, 'activate')).allowed_domains).toEqual(['acme.test']);
    });
  });
});
