/** The erasure use cases (shared/usecases/privacy) with in-memory fakes of the erasures' store and the bucket. */
import type { AddressListEntries, AddressRef } from '#shared/adapters/store/erasures';
import { addressHash } from '#shared/domain/privacy/address-hash';
import type { ErasedCounts, Erasure } from '#shared/domain/privacy/erasure';
import type { Principal } from '#shared/usecases/access/principal';
import type { ErasureDeps, ErasureStore } from '#shared/usecases/privacy/deps';
import { getErasure, startErasure } from '#shared/usecases/privacy/erasures';

const ACC = 'acc_1';
const ADDRESS = 'Jane@Example.org';
const hash = addressHash(ACC, ADDRESS);

const principal = (tenant: string | null = null): Principal =>
  ({
    account: { id: ACC },
    credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant, allowed_domains: null },
  }) as unknown as Principal;

class FakeStore implements ErasureStore {
  erasures = new Map<string, Erasure>();
  records = new Map<string, Record<string, unknown>>();
  refs: (AddressRef & { hash: string })[] = [];
  lists = new Map<string, AddressListEntries>();
  keptByHash = new Map<string, AddressListEntries>();
  refReads = 0;

  async create(erasure: Erasure) {
    this.erasures.set(erasure.id, structuredClone(erasure));
  }
  async get(accountId: string, id: string) {
    const found = this.erasures.get(id);
    return found && found.account_id === accountId ? structuredClone(found) : null;
  }
  async record(
    _accountId: string,
    id: string,
    change: { removed: Partial<ErasedCounts>; keptAsHash?: boolean; at: string; completedAt?: string },
  ) {
    const erasure = this.erasures.get(id)!;
    for (const [kind, n] of Object.entries(change.removed)) erasure.removed[kind as keyof ErasedCounts] += n ?? 0;
    if (change.keptAsHash) erasure.suppression_kept_as_hash = true;
    if (change.completedAt) Object.assign(erasure, { status: 'completed', completed_at: change.completedAt });
    erasure.updated_at = change.at;
    return structuredClone(erasure);
  }
  async refsPage(_accountId: string, wanted: string, limit: number) {
    this.refReads++;
    return this.refs.filter((ref) => ref.hash === wanted).slice(0, limit);
  }
  async deleteRecord(key: { PK: string; SK: string }) {
    const id = `${key.PK}|${key.SK}`;
    const old = this.records.get(id) ?? null;
    this.records.delete(id);
    return old;
  }
  async deleteRefs(refs: readonly AddressRef[]) {
    const gone = new Set(refs.map((ref) => `${ref.key.PK}|${ref.key.SK}`));
    this.refs = this.refs.filter((ref) => !gone.has(`${ref.key.PK}|${ref.key.SK}`));
  }
  async listEntries(_accountId: string, address: string) {
    return this.lists.get(address.toLowerCase()) ?? { suppressions: [], optOuts: [] };
  }
  async replaceEntriesByHash(accountId: string, address: string, entries: AddressListEntries) {
    if (entries.suppressions.length + entries.optOuts.length === 0) return;
    this.keptByHash.set(addressHash(accountId, address), entries);
    this.lists.delete(address.toLowerCase());
  }

  /** A record naming the address, and its reference. */
  seed(kind: AddressRef['kind'], target: string, item: Record<string, unknown>, refHash = hash) {
    const key = { PK: target, SK: kind.toUpperCase() };
    this.records.set(`${key.PK}|${key.SK}`, item);
    this.refs.push({ kind, target: key, key: { PK: `ADDRESSREF#${ACC}#${refHash}`, SK: `${kind}#${target}` }, hash: refHash });
  }
}

/** The exports' part: each account's running slot, and the record keys of exports made before their addresses were referenced. */
class FakeExports {
  slots = new Map<string, string>();
  unindexedKeys: { PK: string; SK: string }[] = [];
  async release(accountId: string, exportId: string) {
    if (this.slots.get(accountId) === exportId) this.slots.delete(accountId);
  }
  async unindexed() {
    return this.unindexedKeys;
  }
}

function world(options: { budgetMs?: number; msPerRead?: number } = {}) {
  const store = new FakeStore();
  const exports = new FakeExports();
  const objects = new Set<string>();
  let now = Date.parse('2026-11-25T10:00:00Z');
  const deps: ErasureDeps = {
    erasures: store,
    exports,
    blobs: {
      head: async (key) => (objects.has(key) ? { size: 1, contentType: 'x' } : null) as never,
      delete: async (key) => void objects.delete(key),
    },
    clock: {
      now: () => {
        now += options.msPerRead ?? 0;
        return new Date(now);
      },
    } as ErasureDeps['clock'],
    erasureBudgetMs: options.budgetMs,
  };
  return { store, exports, objects, deps };
}

describe('erasure by address', () => {
  it('removes every record its references point at, with their objects, and moves its lists to the hash', async () => {
    const { store, objects, deps } = world();
    store.lists.set('jane@example.org', { suppressions: ['ACCOUNT', 'TENANT#t1'], optOuts: ['ACCOUNT#CATEGORY#newsletter'] });
    store.seed('email', 'EMAIL#msg_1', {
      id: 'msg_1',
      body_blob_key: 'bodies/msg_1.json',
      attachments: [{ blob_key: 'attachments/msg_1/0' }],
    });
    store.seed('email', 'EMAIL#msg_2', { id: 'msg_2', body: { text: 'hi' } });
    store.seed('received_email', 'RECEIVED#inb_1', { id: 'inb_1', raw_key: 'inbound/raw/r1.eml', attachments: [] });
    // Written under its retention class (docs/retention.md): its keys from its objects_prefix.
    store.seed('received_email', 'RECEIVED#inb_2', {
      id: 'inb_2',
      objects_prefix: 'retention/7d/',
      raw_key: 'retention/7d/inbound/inb_2/message.eml',
      shared_raw_key: 'inbound/raw/r2.eml',
      attachments: [{ id: 'att_1' }],
    });
    store.seed('webhook_delivery', 'DELIVERY#wh_1#01', { id: 'whd_1' });
    store.seed('idempotency_record', 'IDEMPOTENCY#acc_1#k', { fingerprint: 'f' });
    store.seed('automation_run', 'RUN#run_1', { id: 'run_1' });
    store.seed('email', 'EMAIL#msg_other', { id: 'msg_other' }, addressHash(ACC, 'someone@else.org'));
    for (const key of [
      'bodies/msg_1.json',
      'attachments/msg_1/0',
      'inbound/raw/r1.eml',
      'inbound/inb_1/content.json',
      'inbound/raw/r2.eml',
      'retention/7d/inbound/inb_2/message.eml',
      'retention/7d/inbound/inb_2/content.json',
      'retention/7d/inbound/inb_2/attachments/att_1',
      'unrelated',
    ])
      objects.add(key);

    const erasure = await startErasure(deps, principal(), { email: ADDRESS });

    expect(erasure).toMatchObject({ status: 'completed', suppression_kept_as_hash: true });
    expect(erasure.removed).toEqual({
      suppressions: 2,
      category_opt_outs: 1,
      emails: 2,
      received_emails: 2,
      webhook_deliveries: 1,
      idempotency_records: 1,
      automation_runs: 1,
      exports: 0,
      objects: 8,
    });
    expect([...objects]).toEqual(['unrelated']);
    expect([...store.records.keys()]).toEqual(['EMAIL#msg_other|EMAIL']);
    expect(store.refs.map((ref) => ref.target.PK)).toEqual(['EMAIL#msg_other']);
    expect(store.keptByHash.get(hash)).toEqual({ suppressions: ['ACCOUNT', 'TENANT#t1'], optOuts: ['ACCOUNT#CATEGORY#newsletter'] });
    // The record holds the hash, never the address.
    expect(JSON.stringify(store.erasures.get(erasure.id)).toLowerCase()).not.toContain('jane@example.org');
  });

  it('stops at its time budget and the next GET continues where it stopped, counting each record once', async () => {
    const { store, deps } = world({ budgetMs: 1, msPerRead: 1 });
    for (let i = 0; i < 60; i++) store.seed('email', `EMAIL#msg_${i}`, { id: `msg_${i}` });

    const first = await startErasure(deps, principal(), { email: ADDRESS });
    expect(first.status).toBe('running');
    expect(first.removed.emails).toBe(25);

    let current = first;
    for (let polls = 0; current.status === 'running' && polls < 10; polls++) current = await getErasure(deps, principal(), first.id);
    expect(current).toMatchObject({ status: 'completed' });
    expect(current.removed.emails).toBe(60);
    expect(store.records.size).toBe(0);
  });

  it('a reference to a record already gone counts nothing (expired, or erased by an overlapping stretch)', async () => {
    const { store, deps } = world();
    store.seed('email', 'EMAIL#msg_1', { id: 'msg_1' });
    store.records.clear();
    const erasure = await startErasure(deps, principal(), { email: ADDRESS });
    expect(erasure.removed.emails).toBe(0);
    expect(store.refs).toHaveLength(0);
  });

  it('erasing the same address again finds nothing left; the hash kept stays', async () => {
    const { store, deps } = world();
    store.lists.set('jane@example.org', { suppressions: ['ACCOUNT'], optOuts: [] });
    store.seed('email', 'EMAIL#msg_1', { id: 'msg_1' });
    await startErasure(deps, principal(), { email: ADDRESS });
    const again = await startErasure(deps, principal(), { email: 'jane@example.org' });
    expect(again.status).toBe('completed');
    expect(Object.values(again.removed).every((n) => n === 0)).toBe(true);
    expect(again.suppression_kept_as_hash).toBe(false);
    expect(store.keptByHash.get(hash)?.suppressions).toEqual(['ACCOUNT']);
  });

  it('a completed erasure is answered as it is, without more work', async () => {
    const { store, deps } = world();
    const erasure = await startErasure(deps, principal(), { email: ADDRESS });
    const reads = store.refReads;
    expect(await getErasure(deps, principal(), erasure.id)).toMatchObject({ id: erasure.id, status: 'completed' });
    expect(store.refReads).toBe(reads);
  });

  it('deletes an export whose files named the address whole: its record, every part file of every kind (a part written after its record was read too), its running slot', async () => {
    const { store, exports, objects, deps } = world();
    const head = { PK: `EXPORT#${ACC}#exp_1`, SK: 'HEAD' };
    store.records.set(`${head.PK}|HEAD`, { id: 'exp_1', account_id: ACC });
    store.refs.push({ kind: 'export', target: head, key: { PK: `ADDRESSREF#${ACC}#${hash}`, SK: `EXPORT#${head.PK}#HEAD` }, hash });
    exports.slots.set(ACC, 'exp_1');
    const files = [
      `exports/${ACC}/exp_1/emails/part-00001.ndjson`,
      `exports/${ACC}/exp_1/emails/part-00002.ndjson`,
      `exports/${ACC}/exp_1/suppressions/part-00001.ndjson`,
      `exports/${ACC}/exp_1/suppressions/part-00001.csv`,
      `exports/${ACC}/exp_1/received_emails/part-00001.ndjson`,
    ];
    for (const key of [...files, `exports/${ACC}/exp_2/emails/part-00001.ndjson`]) objects.add(key);

    const erasure = await startErasure(deps, principal(), { email: ADDRESS });

    expect(erasure.status).toBe('completed');
    expect(erasure.removed).toMatchObject({ exports: 1, objects: files.length });
    expect([...objects]).toEqual([`exports/${ACC}/exp_2/emails/part-00001.ndjson`]);
    expect(store.records.size).toBe(0);
    expect(exports.slots.size).toBe(0);
  });

  it('an export made before its addresses were referenced is deleted whole (it cannot say whom it names); one already gone counts nothing', async () => {
    const { store, exports, objects, deps } = world();
    exports.unindexedKeys = [
      { PK: `EXPORT#${ACC}#exp_old`, SK: 'HEAD' },
      { PK: `EXPORT#${ACC}#exp_gone`, SK: 'HEAD' },
    ];
    store.records.set(`EXPORT#${ACC}#exp_old|HEAD`, { id: 'exp_old' });
    objects.add(`exports/${ACC}/exp_old/domains/part-00001.ndjson`);

    const erasure = await startErasure(deps, principal(), { email: ADDRESS });

    expect(erasure.removed).toMatchObject({ exports: 1, objects: 1 });
    expect(objects.size).toBe(0);
  });

  it('refuses a key limited to a tenant (403) and answers 404 for an unknown or malformed id', async () => {
    const { deps } = world();
    await expect(startErasure(deps, principal('t1'), { email: ADDRESS })).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await expect(getErasure(deps, principal(), 'era_01JD8X4Z6Q2W3E4R5T6Y7V8W9X')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(getErasure(deps, principal(), 'nope')).rejects.toMatchObject({ status: 404 });
  });
});
