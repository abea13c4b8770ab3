/** Template use cases over an in-memory repository: drafts, publishing, races, tenant keys, previews. */
import type { Account } from '#shared/domain/accounts/account';
import { AppError } from '#shared/domain/errors';
import { createTemplateSchema, updateTemplateSchema } from '#shared/domain/templates/schemas';
import { publishedTemplateOf, toPublicTemplate, type PublishedVersion, type Template } from '#shared/domain/templates/template';
import type { CreateTemplateOutcome, SaveTemplateOutcome } from '#shared/adapters/store/templates';
import type { Principal } from '#shared/usecases/access/principal';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  publishTemplate,
  renderTemplatePreview,
  updateTemplate,
  type TemplateDeps,
} from '#shared/usecases/templates/templates';

const NOW = new Date('2026-11-22T10:00:00.000Z');

function principal(overrides: { account?: string; tenant?: string | null } = {}): Principal {
  const account = {
    id: overrides.account ?? 'acc_1',
    email: 'o@example.com',
    plan: 'free',
    payment_method: false,
    tenants_enabled: true,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
  } as Account;
  return {
    account,
    credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant: overrides.tenant ?? null, allowed_domains: null },
  };
}

/** The repository's contract, in memory; `beforeWrite` lets a test change the item between a read and a write. */
class FakeTemplates {
  readonly items = new Map<string, Template>();
  beforeWrite: (() => void) | null = null;
  limit = 1000;

  private key(accountId: string, alias: string) {
    return `${accountId}/${alias}`;
  }

  async create(template: Template, limit: number): Promise<CreateTemplateOutcome> {
    if (this.items.has(this.key(template.account_id, template.alias))) return { kind: 'alias_taken' };
    if ([...this.items.values()].filter((t) => t.account_id === template.account_id).length >= Math.min(limit, this.limit))
      return { kind: 'limit_reached' };
    this.items.set(this.key(template.account_id, template.alias), structuredClone(template));
    return { kind: 'created' };
  }

  async get(accountId: string, alias: string) {
    const found = this.items.get(this.key(accountId, alias));
    return found ? structuredClone(found) : null;
  }

  async list(accountId: string) {
    const items = [...this.items.values()].filter((t) => t.account_id === accountId).sort((a, b) => b.id.localeCompare(a.id));
    return { items, next_cursor: null };
  }

  async saveDraft(next: Template, expectedRevision: number, now: string): Promise<SaveTemplateOutcome> {
    this.beforeWrite?.();
    const current = this.items.get(this.key(next.account_id, next.alias));
    if (!current || current.revision !== expectedRevision) return { kind: 'conflict' };
    const saved = { ...structuredClone(next), published: current.published, revision: expectedRevision + 1, updated_at: now };
    this.items.set(this.key(next.account_id, next.alias), saved);
    return { kind: 'saved', template: structuredClone(saved) };
  }

  async publish(read: Template, version: PublishedVersion): Promise<SaveTemplateOutcome> {
    const { account_id: accountId, alias, id: templateId, revision: draftRevision } = read;
    const previousVersion = read.published?.version ?? 0;
    this.beforeWrite?.();
    const current = this.items.get(this.key(accountId, alias));
    if (
      !current ||
      current.id !== templateId ||
      current.revision !== draftRevision ||
      (current.published?.version ?? 0) !== previousVersion
    )
      return { kind: 'conflict' };
    current.published = structuredClone(version);
    current.updated_at = version.published_at;
    return { kind: 'saved', template: structuredClone(current) };
  }

  async delete(accountId: string, alias: string) {
    return this.items.delete(this.key(accountId, alias));
  }
}

function setup() {
  const templates = new FakeTemplates();
  let now = NOW.getTime();
  const deps: TemplateDeps = {
    templates,
    clock: {
      now: () => {
        now += 1000;
        return new Date(now);
      },
    },
  };
  return { templates, deps };
}

const create = (deps: TemplateDeps, body: Record<string, unknown> = {}, who = principal()) =>
  createTemplate(
    deps,
    who,
    createTemplateSchema.parse({ name: 'Welcome', alias: 'welcome', subject: 'Hi {{name}}', html: '<p>Hi {{name}}</p>', ...body }),
  );
const update = (deps: TemplateDeps, changes: Record<string, unknown>, alias = 'welcome') =>
  updateTemplate(deps, principal(), alias, updateTemplateSchema.parse(changes));

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('template use cases', () => {
  it('creates drafts with the category defaults', async () => {
    const { deps } = setup();
    const template = await create(deps);
    expect(template).toMatchObject({
      alias: 'welcome',
      category: 'transactional',
      unsubscribe_enabled: false,
      published: null,
      revision: 1,
      reply_to: [],
      from: null,
      text: null,
    });
    expect(template.id).toMatch(/^tpl_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(toPublicTemplate(template)).toMatchObject({
      status: 'draft',
      has_unpublished_changes: true,
      published_version: null,
      published_at: null,
    });
    expect((await create(deps, { alias: 'news', category: 'newsletter' })).unsubscribe_enabled).toBe(true);
  });

  it('answers 409 for an alias the account has, and lets another account use it', async () => {
    const { deps } = setup();
    await create(deps);
    const error = await rejection(create(deps));
    expect([error.status, error.code, error.details]).toEqual([409, 'conflict', { alias: 'welcome' }]);
    await expect(create(deps, {}, principal({ account: 'acc_2' }))).resolves.toMatchObject({ account_id: 'acc_2' });
  });

  it('refuses every operation to a key limited to a tenant (403 forbidden)', async () => {
    const { deps } = setup();
    await create(deps);
    const tenantKey = principal({ tenant: 'ten_1' });
    for (const call of [
      create(deps, { alias: 'other' }, tenantKey),
      listTemplates(deps, tenantKey, { limit: 10 }),
      getTemplate(deps, tenantKey, 'welcome'),
      updateTemplate(deps, tenantKey, 'welcome', { subject: 'x' }),
      deleteTemplate(deps, tenantKey, 'welcome'),
      publishTemplate(deps, tenantKey, 'welcome'),
      renderTemplatePreview(deps, tenantKey, 'welcome', {}),
    ]) {
      const error = await rejection(call);
      expect([error.status, error.code]).toEqual([403, 'forbidden']);
    }
  });

  it('answers 404 for another account, an unknown alias and one that cannot exist', async () => {
    const { deps } = setup();
    await create(deps);
    for (const call of [
      getTemplate(deps, principal({ account: 'acc_2' }), 'welcome'),
      getTemplate(deps, principal(), 'nope'),
      getTemplate(deps, principal(), 'Not An Alias'),
      deleteTemplate(deps, principal(), 'nope'),
    ]) {
      expect((await rejection(call)).status).toBe(404);
    }
  });

  it('publishes the draft as version 1, then edits show unpublished changes while the published version stays', async () => {
    const { deps, templates } = setup();
    await create(deps);
    const published = await publishTemplate(deps, principal(), 'welcome');
    expect(published.published).toMatchObject({ version: 1, subject: 'Hi {{name}}', html: '<p>Hi {{name}}</p>' });
    expect(toPublicTemplate(published)).toMatchObject({ status: 'published', has_unpublished_changes: false, published_version: 1 });

    const edited = await update(deps, { subject: 'Hello {{name}}' });
    expect(toPublicTemplate(edited)).toMatchObject({
      subject: 'Hello {{name}}',
      status: 'published',
      has_unpublished_changes: true,
      published_version: 1,
    });
    expect(publishedTemplateOf(edited, edited.published!).subject).toBe('Hi {{name}}');

    const again = await publishTemplate(deps, principal(), 'welcome');
    expect(again.published).toMatchObject({ version: 2, subject: 'Hello {{name}}' });
    // Nothing changed since: a no-op that returns the template as it is.
    const noop = await publishTemplate(deps, principal(), 'welcome');
    expect(noop).toEqual(again);
    expect(templates.items.get('acc_1/welcome')!.published!.version).toBe(2);
  });

  it('an edit that changes nothing writes nothing; an edit back to the published content has no unpublished changes', async () => {
    const { deps } = setup();
    const created = await create(deps);
    await publishTemplate(deps, principal(), 'welcome');
    const same = await update(deps, { subject: created.subject });
    expect(same.revision).toBe(created.revision);
    await update(deps, { subject: 'changed' });
    const back = await update(deps, { subject: created.subject });
    expect(toPublicTemplate(back).has_unpublished_changes).toBe(false);
  });

  it('checks the draft as a whole after a PATCH: a body remains; product and newsletter keep unsubscribe on', async () => {
    const { deps } = setup();
    await create(deps, { text: 'plain' });
    expect((await update(deps, { html: null })).html).toBeNull();
    const noBody = await rejection(update(deps, { text: null }));
    expect([noBody.status, noBody.details]).toEqual([400, { fields: [{ field: 'html', message: 'one of html or text is required' }] }]);

    // A new category without unsubscribe_enabled takes the category's default...
    expect((await update(deps, { category: 'product' })).unsubscribe_enabled).toBe(true);
    // ...which cannot be turned off while it is product or newsletter...
    const off = await rejection(update(deps, { unsubscribe_enabled: false }));
    expect([off.status, (off.details!.fields as { field: string }[])[0]!.field]).toEqual([400, 'unsubscribe_enabled']);
    // ...and goes back to off with transactional.
    expect((await update(deps, { category: 'transactional' })).unsubscribe_enabled).toBe(false);
    expect((await update(deps, { category: 'product' })).unsubscribe_enabled).toBe(true);
    expect((await update(deps, { category: 'transactional', unsubscribe_enabled: true })).unsubscribe_enabled).toBe(true);
  });

  it('never publishes a mix: a publish that lost a race with an edit reads again and publishes the new draft', async () => {
    const { deps, templates } = setup();
    await create(deps);
    let raced = false;
    templates.beforeWrite = () => {
      if (raced) return;
      raced = true;
      const item = templates.items.get('acc_1/welcome')!;
      templates.items.set('acc_1/welcome', {
        ...item,
        subject: 'Concurrent {{name}}',
        html: '<p>concurrent</p>',
        revision: item.revision + 1,
      });
    };
    const published = await publishTemplate(deps, principal(), 'welcome');
    expect(published.published).toMatchObject({ version: 1, subject: 'Concurrent {{name}}', html: '<p>concurrent</p>' });
  });

  it('an edit that lost a race re-applies its change to the new draft, and is checked again', async () => {
    const { deps, templates } = setup();
    await create(deps, { text: 'plain' });
    let raced = false;
    templates.beforeWrite = () => {
      if (raced) return;
      raced = true;
      const item = templates.items.get('acc_1/welcome')!;
      templates.items.set('acc_1/welcome', { ...item, text: null, revision: item.revision + 1 });
    };
    // Alone, removing html would leave text; after the concurrent removal of text it would leave nothing.
    const error = await rejection(update(deps, { html: null }));
    expect(error.status).toBe(400);
    expect(templates.items.get('acc_1/welcome')!.html).toBe('<p>Hi {{name}}</p>');
  });

  it('answers 409 when the template keeps changing under an edit', async () => {
    const { deps, templates } = setup();
    await create(deps);
    templates.beforeWrite = () => {
      const item = templates.items.get('acc_1/welcome')!;
      item.revision += 1;
    };
    const error = await rejection(update(deps, { subject: 'x' }));
    expect([error.status, error.code]).toEqual([409, 'conflict']);
  });

  it('deletes, freeing the alias', async () => {
    const { deps } = setup();
    const first = await create(deps);
    await deleteTemplate(deps, principal(), 'welcome');
    expect((await rejection(getTemplate(deps, principal(), 'welcome'))).status).toBe(404);
    const second = await create(deps);
    expect(second.id).not.toBe(first.id);
  });

  it('refuses a template over the account limit', async () => {
    const { deps, templates } = setup();
    templates.limit = 1;
    await create(deps);
    const error = await rejection(create(deps, { alias: 'second' }));
    expect([error.status, error.code]).toEqual([403, 'limit_exceeded']);
  });

  it('renders the draft, or the published version on request, without the missing list', async () => {
    const { deps } = setup();
    await create(deps, { variables: [{ key: 'name', type: 'string', fallback_value: 'there' }] });
    expect(await renderTemplatePreview(deps, principal(), 'welcome', { variables: { name: '<b>' } })).toEqual({
      subject: 'Hi <b>',
      html: '<p>Hi &lt;b&gt;</p>',
      text: null,
      warnings: [],
    });
    const unpublished = await rejection(renderTemplatePreview(deps, principal(), 'welcome', {}, 'published'));
    expect([unpublished.status, unpublished.code]).toEqual([409, 'conflict']);
    await publishTemplate(deps, principal(), 'welcome');
    await update(deps, { subject: 'Draft {{name}}' });
    expect((await renderTemplatePreview(deps, principal(), 'welcome', {}, 'published')).subject).toBe('Hi there');
    expect((await renderTemplatePreview(deps, principal(), 'welcome', {})).subject).toBe('Draft there');
  });
});
