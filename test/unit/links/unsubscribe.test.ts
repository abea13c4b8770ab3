/** The unsubscribe use case with in-memory lists: which list, idempotence, and contact.unsubscribed. */
import type { Email } from '#shared/domain/emails/email';
import { newId } from '#shared/domain/ids';
import type { UnsubscribeLink } from '#shared/domain/links/link-urls';
import type { CategoryOptOut, Suppression } from '#shared/domain/suppressions/model';
import type { ServiceEvent } from '#shared/domain/webhooks/event';
import type { CategoryOptOutRepository } from '#shared/adapters/store/category-opt-outs';
import type { SuppressionRepository } from '#shared/adapters/store/suppressions';
import { unsubscribe, type UnsubscribeDeps } from '#shared/usecases/links/unsubscribe';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const accountId = newId('acc', NOW.getTime() - 86_400_000);
const emailId = newId('msg', NOW.getTime() - 60_000);
const TENANT = 'ten_01JB0000000000000000000000';

function fakes(options: { email?: Partial<Email> | null } = {}) {
  const suppressions = new Map<string, Suppression>();
  const optOuts = new Map<string, CategoryOptOut>();
  const events: ServiceEvent[] = [];
  const email =
    options.email === null
      ? null
      : ({
          id: emailId,
          account_id: accountId,
          tenant: 'acme',
          created_at: new Date(NOW.getTime() - 60_000).toISOString(),
          ...options.email,
        } as Email);
  const deps: UnsubscribeDeps = {
    suppressions: {
      addMany: async (records: Suppression[]) =>
        records.map((record) => {
          const key = `${record.account_id}|${record.tenant}|${record.email}`;
          const existing = suppressions.get(key);
          if (existing) return { suppression: existing, created: false };
          suppressions.set(key, record);
          return { suppression: record, created: true };
        }),
    } as unknown as SuppressionRepository,
    categoryOptOuts: {
      add: async (record: CategoryOptOut) => {
        const key = `${record.account_id}|${record.tenant}|${record.email}|${record.category}`;
        const existing = optOuts.get(key);
        if (existing) return { optOut: existing, created: false };
        optOuts.set(key, record);
        return { optOut: record, created: true };
      },
    } as unknown as CategoryOptOutRepository,
    tenants: {} as never,
    clock: { now: () => NOW },
    emails: { get: async (id) => (email && id === email.id ? { email, body: { inline: {} }, internals: {} } : null) },
    events: { publish: async (batch) => void events.push(...batch) },
  };
  return { deps, suppressions, optOuts, events };
}

const link = (overrides: Partial<UnsubscribeLink> = {}): UnsubscribeLink => ({
  accountId,
  emailId,
  recipient: 'reader@example.com',
  scope: 'all',
  category: 'transactional',
  tenantId: TENANT,
  ...overrides,
});

describe('unsubscribe', () => {
  it('scope all: suppresses the address on the tenant list with reason unsubscribe and publishes contact.unsubscribed with every field', async () => {
    const { deps, suppressions, optOuts, events } = fakes();
    const result = await unsubscribe(deps, link(), 'one_click');
    expect([...suppressions.values()]).toEqual([
      {
        id: expect.stringMatching(/^sup_/),
        account_id: accountId,
        email: 'reader@example.com',
        scope: 'tenant',
        tenant: TENANT,
        reason: 'unsubscribe',
        created_at: NOW.toISOString(),
      },
    ]);
    expect(optOuts.size).toBe(0);
    expect(result).toMatchObject({ created: true, categoryOptOutId: null, suppressionId: [...suppressions.values()][0]!.id });
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: 'contact.unsubscribed',
        account_id: accountId,
        tenant: 'acme',
        created_at: NOW.toISOString(),
        data: {
          email: 'reader@example.com',
          source: 'one_click',
          scope: 'all',
          category: null,
          category_label: null,
          suppression_id: result.suppressionId,
          category_opt_out_id: null,
          email_id: emailId,
        },
      },
    ]);
    // The event id is time-sortable from the email's creation.
    expect(events[0]!.id.slice(4, 14)).toBe(emailId.slice(4, 14));
  });

  it('scope category: records an opt-out of that category (not a suppression), on the account list without a tenant', async () => {
    const { deps, suppressions, optOuts, events } = fakes({ email: { tenant: null } });
    const result = await unsubscribe(deps, link({ scope: 'category', category: 'newsletter', tenantId: null }), 'confirmation_page');
    expect(suppressions.size).toBe(0);
    const [optOut] = [...optOuts.values()];
    expect(optOut).toMatchObject({
      id: expect.stringMatching(/^cop_/),
      account_id: accountId,
      tenant: null,
      email: 'reader@example.com',
      category: 'newsletter',
    });
    expect(events[0]).toMatchObject({
      tenant: null,
      data: {
        source: 'confirmation_page',
        scope: 'category',
        category: 'newsletter',
        category_label: 'Newsletter',
        suppression_id: null,
        category_opt_out_id: optOut!.id,
        email_id: emailId,
      },
    });
    expect(result.created).toBe(true);
    await unsubscribe(deps, link({ scope: 'category', category: 'product', tenantId: null }), 'one_click');
    expect(events[1]!.data).toMatchObject({ category: 'product', category_label: 'Product updates' });
  });

  it('is idempotent: a repeated POST keeps the record and publishes the same event id (delivered once)', async () => {
    const { deps, suppressions, events } = fakes();
    const first = await unsubscribe(deps, link(), 'one_click');
    const again = await unsubscribe(deps, link(), 'confirmation_page');
    expect(suppressions.size).toBe(1);
    expect(again).toMatchObject({ created: false, suppressionId: first.suppressionId });
    expect(events.map((event) => event.id)).toEqual([first.event.id, first.event.id]);
    // Another scope or recipient is another event.
    const other = await unsubscribe(deps, link({ recipient: 'other@example.com' }), 'one_click');
    expect(other.event.id).not.toBe(first.event.id);
  });

  it('still unsubscribes when the email was deleted (the address is what matters): the event has the email id and no tenant', async () => {
    const { deps, suppressions, events } = fakes({ email: null });
    await unsubscribe(deps, link(), 'one_click');
    expect(suppressions.size).toBe(1);
    expect(events[0]).toMatchObject({ tenant: null, data: { email_id: emailId, suppression_id: expect.stringMatching(/^sup_/) } });
  });
});
