/**
 * listAuditLog (shared/usecases/audit/list.ts): the account's log only, never to a tenant's key; `since`
 * and `until` become the id range (ULID time bounds) the store reads; `since` after `until` is 400.
 */
import { auditIdBounds } from '#shared/domain/audit/audit-record';
import type { AppError } from '#shared/domain/errors';
import { listAuditLog } from '#shared/usecases/audit/list';
import type { Principal } from '#shared/usecases/access/principal';

const principal = (tenant: string | null): Principal => ({
  account: { id: 'acc_1' } as Principal['account'],
  credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant, allowed_domains: null },
});

function deps() {
  const calls: unknown[][] = [];
  return {
    calls,
    deps: {
      clock: { now: () => new Date('2026-03-01T00:00:00Z') },
      auditLog: {
        list: async (...args: unknown[]) => {
          calls.push(args);
          return { items: [], next_cursor: null };
        },
      },
    },
  };
}

it('reads the account with the filters as an id range', async () => {
  const { calls, deps: d } = deps();
  await listAuditLog(d as never, principal(null), {
    limit: 10,
    actor: 'usr_1',
    action: 'signIn',
    since: '2026-01-01T00:00:00Z',
    until: '2026-02-01T00:00:00Z',
  });
  expect(calls[0]).toEqual([
    'acc_1',
    {
      actor: 'usr_1',
      action: 'signIn',
      low: auditIdBounds(Date.parse('2026-01-01T00:00:00Z')).low,
      high: auditIdBounds(Date.parse('2026-02-01T00:00:00Z')).high,
    },
    { limit: 10, cursor: undefined },
    Date.parse('2026-03-01T00:00:00Z'),
  ]);
  expect(auditIdBounds(1000).low < auditIdBounds(1000).high && auditIdBounds(1000).high < auditIdBounds(1001).low).toBe(true);
});

it('refuses a tenant key (403) and since after until (400)', async () => {
  const { deps: d } = deps();
  await expect(listAuditLog(d as never, principal('ten_1'), { limit: 10 })).rejects.toMatchObject({ status: 403 });
  const refused = await listAuditLog(d as never, principal(null), {
    limit: 10,
    since: '2026-02-01T00:00:00Z',
    until: '2026-01-01T00:00:00Z',
  }).catch((error: AppError) => error);
  expect(refused).toMatchObject({ status: 400, code: 'validation_error' });
});
