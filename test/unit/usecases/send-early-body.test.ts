/**
 * A large body's PUT beside the send's read (shared/usecases/send/early-body.ts), with in-memory fakes of the
 * send core's ports: started before the read when the process knows the caller's retention class, used by
 * the accept step, put again under the right class when the guess was wrong, and deleted when the send is
 * refused or replayed.
 */
import { EarlyBodies } from '#shared/usecases/send/early-body';
import { sendEmail } from '#shared/usecases/send/send-email';
import { INLINE_MIME_LIMIT } from '#shared/usecases/send/content-keys';
import type { SendRequest } from '#shared/domain/emails/send-request';
import type { BlobStore } from '#shared/ports/blobs';
import { account, fakeSendDeps, keyLookup, SANDBOX } from './send-fakes';

const BIG = 'x'.repeat(5_000);
const request = (overrides: Partial<SendRequest> = {}): SendRequest =>
  ({ from: { email: `hi@${SANDBOX}` }, to: ['owner@example.com'], subject: 'Hello', html: BIG, ...overrides }) as SendRequest;

/** The send core's fakes with a blob store that logs its calls beside the context reads, in order. */
function world(options: { failPuts?: number } = {}) {
  const { deps, world: w } = fakeSendDeps({ keys: new Map([['hash-a', keyLookup()]]) });
  const events: string[] = [];
  const objects = new Map<string, string | Buffer>();
  let failPuts = options.failPuts ?? 0;
  const blobs = {
    put: async (key: string, body: string | Buffer) => {
      events.push(`put ${key}`);
      if (failPuts > 0) {
        failPuts--;
        throw new Error('S3 is down');
      }
      objects.set(key, body);
    },
    delete: async (key: string) => {
      events.push(`delete ${key}`);
      objects.delete(key);
    },
  };
  deps.blobs = blobs as unknown as BlobStore;
  deps.earlyBodies = new EarlyBodies(blobs);
  const loader = deps.sendContextLoader;
  deps.sendContextLoader = {
    load: async (...args) => {
      events.push('read');
      return loader.load(...args);
    },
  };
  const bodyKeyOf = (index: number) => {
    const body = w.accepted[index]!.body;
    return 'blobKey' in body ? body.blobKey : undefined;
  };
  return { deps, w, events, objects, bodyKeyOf };
}

describe('a large body put beside the send read', () => {
  it("puts it after the read for a key's first send, and beside the read from the second, under the account's class", async () => {
    const { deps, events, objects, bodyKeyOf } = world();
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    expect(events).toEqual(['read', `put ${bodyKeyOf(0)}`]);
    events.length = 0;
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    // The free plan keeps emails 30 days: the class's prefix.
    expect(bodyKeyOf(1)).toMatch(/^retention\/30d\/bodies\/msg_[0-9A-Z]+\.json$/);
    expect(events).toEqual([`put ${bodyKeyOf(1)}`, 'read']);
    expect(JSON.parse(objects.get(bodyKeyOf(1)!) as string)).toEqual({ html: BIG });
  });

  it('puts nothing early for a body kept in the item, or a template send (rendered from the read)', async () => {
    const { deps, w, events, bodyKeyOf } = world();
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    events.length = 0;
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request({ html: '<p>short</p>' }));
    expect(events).toEqual(['read']);
    w.templates.set('big', {
      id: 'tpl_1',
      alias: 'big',
      version: 1,
      subject: 'Hi',
      html: `<p>${BIG}</p>`,
      text: null,
      from: `News <news@${SANDBOX}>`,
      reply_to: [],
      category: 'transactional',
      unsubscribe_enabled: false,
      variables: [],
    } as never);
    events.length = 0;
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, { to: ['owner@example.com'], template: { id: 'big', variables: {} } } as never);
    expect(events).toEqual(['read', `put ${bodyKeyOf(2)}`]);
  });

  it('deletes the early object when the send is refused after it (403 for a domain the account has not verified)', async () => {
    const { deps, w, events } = world();
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    events.length = 0;
    await expect(sendEmail(deps, { apiKeyHash: 'hash-a' }, request({ from: { email: 'hi@not-ours.test' } }))).rejects.toMatchObject({
      status: 403,
    });
    expect(events).toHaveLength(3);
    expect(events[0]).toMatch(/^put retention\/30d\/bodies\//);
    expect(events.slice(1)).toEqual(['read', `delete ${events[0]!.slice(4)}`]);
    expect(w.accepted).toHaveLength(1);
  });

  it('deletes the early object of an idempotent replay (the first request stored the email)', async () => {
    const { deps, w, events, objects, bodyKeyOf } = world();
    const idempotency = { key: 'k-1', fingerprint: 'f-1' };
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request(), { idempotency });
    events.length = 0;
    const again = await sendEmail(deps, { apiKeyHash: 'hash-a' }, request(), { idempotency });
    expect(again.id).toBe(w.accepted[0]!.email.id);
    expect(w.accepted).toHaveLength(1);
    const early = events[0]!.slice(4);
    expect(events).toEqual([`put ${early}`, 'read', `delete ${early}`]);
    expect([...objects.keys()]).toEqual([bodyKeyOf(0)]);
  });

  it("puts the body again under the account's class when its retention changed since, and deletes the early one", async () => {
    const { deps, w, events, objects, bodyKeyOf } = world();
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    w.accounts.set('acc_1', account({ retention: { emails_days: 7 } }));
    events.length = 0;
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    const guessed = events[0]!.slice(4);
    expect(guessed).toMatch(/^retention\/30d\//);
    expect(bodyKeyOf(1)).toMatch(/^retention\/7d\/bodies\//);
    expect(events).toEqual([`put ${guessed}`, 'read', `put ${bodyKeyOf(1)}`, `delete ${guessed}`]);
    expect(objects.has(guessed)).toBe(false);
    // The next send guesses the new class.
    events.length = 0;
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    expect(events).toEqual([`put ${bodyKeyOf(2)}`, 'read']);
    expect(bodyKeyOf(2)).toMatch(/^retention\/7d\//);
  });

  it('puts the body again after the read when the early PUT failed, and the email is accepted', async () => {
    const { deps, w, events, objects, bodyKeyOf } = world({ failPuts: 1 });
    // The class of this key's account, as a first send would have taught the process.
    deps.earlyBodies!.remember({ apiKeyHash: 'hash-a' }, account());
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    expect(events).toEqual([`put ${bodyKeyOf(0)}`, 'read', `put ${bodyKeyOf(0)}`]);
    expect(objects.has(bodyKeyOf(0)!)).toBe(true);
    expect(w.accepted).toHaveLength(1);
  });

  it("a resolved caller (the dashboard, an automation) puts it early from its first send: its account's class is known", async () => {
    const { deps, events, bodyKeyOf } = world();
    const principal = {
      account: account({ plan: 'pro' }),
      credential: { kind: 'api_key' as const, id: 'key_1', scopes: ['full'], tenant: null, allowed_domains: null },
    };
    await sendEmail(deps, { principal }, request());
    expect(bodyKeyOf(0)).toMatch(/^retention\/90d\/bodies\//);
    expect(events).toEqual([`put ${bodyKeyOf(0)}`, 'read']);
  });

  it("a raw message (the SMTP relay) over INLINE_MIME_LIMIT is put early as it is, under the key's class", async () => {
    const { deps, w, events, objects } = world();
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    events.length = 0;
    const raw = Buffer.from(`From: hi@sandbox.test\r\nTo: owner@example.com\r\nSubject: Hello\r\n\r\n${'hi there\r\n'.repeat(300)}`);
    expect(raw.length).toBeGreaterThan(INLINE_MIME_LIMIT);
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request({ html: undefined, text: undefined }), { mime: { raw } });
    const mime = w.accepted[1]!.mime!;
    const mimeKey = 'blobKey' in mime ? mime.blobKey : '';
    expect(mimeKey).toMatch(/^retention\/30d\/raw\/msg_[0-9A-Z]+\.eml$/);
    expect(events).toEqual([`put ${mimeKey}`, 'read']);
    expect(objects.get(mimeKey)).toBe(raw);
  });

  it('a raw message up to INLINE_MIME_LIMIT stays in the email item: nothing is put, early or late', async () => {
    const { deps, w, events, objects } = world();
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    events.length = 0;
    const sizeBefore = objects.size;
    const raw = Buffer.from('From: hi@sandbox.test\r\nTo: owner@example.com\r\nSubject: Hello\r\n\r\nhi\r\n');
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request({ html: undefined, text: undefined }), { mime: { raw } });
    expect(w.accepted[1]!.mime).toEqual({ inline: raw });
    expect(events).toEqual(['read']);
    expect(objects.size).toBe(sizeBefore);
  });
});
