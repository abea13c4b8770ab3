/**
 * The SMTP benches' fair floors (bench/lib/durable-floors.ts): what each does before its 250, in which
 * order, with fakes of the product's calls.
 */
import type { SMTPServerSession } from 'smtp-server';
import { mxFloorStore, relayFloorStore } from '#bench/lib/durable-floors';

const session = {} as SMTPServerSession;

describe('the fair floors', () => {
  it('relay: the read beside the raw PUT, then the email written naming the object (never before the object is stored)', async () => {
    const events: string[] = [];
    let releasePut: () => void = () => undefined;
    const store = relayFloorStore({
      read: async (n) => void events.push(`read ${n}`),
      putRaw: (key) =>
        new Promise<void>((resolve) => {
          events.push(`put start ${key}`);
          releasePut = () => {
            events.push(`put done ${key}`);
            resolve();
          };
        }),
      newEmail: (n) => ({
        id: `msg_${n}`,
        rawKey: `retention/30d/raw/msg_${n}.eml`,
        write: async () => void events.push(`write msg_${n}`),
      }),
    });
    const answered = store(Buffer.from('raw'), session);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['read 0', 'put start retention/30d/raw/msg_0.eml']);
    releasePut();
    expect(await answered).toBe('msg_0');
    expect(events).toEqual(['read 0', 'put start retention/30d/raw/msg_0.eml', 'put done retention/30d/raw/msg_0.eml', 'write msg_0']);
  });

  it('relay: a message kept in the item (as the relay keeps a short one) is read and written, never put', async () => {
    const events: string[] = [];
    const store = relayFloorStore({
      read: async (n) => void events.push(`read ${n}`),
      putRaw: async (key) => void events.push(`put ${key}`),
      newEmail: (n, raw) => ({ id: `msg_${n}`, write: async () => void events.push(`write msg_${n} ${raw.length}`) }),
    });
    expect(await store(Buffer.from('short'), session)).toBe('msg_0');
    expect(events).toEqual(['read 0', 'write msg_0 5']);
  });

  it('relay: a failed PUT writes no email (the floor answers 451)', async () => {
    const writes: string[] = [];
    const store = relayFloorStore({
      read: async () => undefined,
      putRaw: async () => {
        throw new Error('S3 down');
      },
      newEmail: (n) => ({ id: `msg_${n}`, rawKey: 'k', write: async () => void writes.push(`msg_${n}`) }),
    });
    await expect(store(Buffer.from('raw'), session)).rejects.toThrow('S3 down');
    expect(writes).toEqual([]);
  });

  it('MX: the raw PUT, then one queue message naming the object and its size', async () => {
    const events: string[] = [];
    const store = mxFloorStore({
      rawKey: () => 'inbound/raw/01.eml',
      putRaw: async (key, raw) => void events.push(`put ${key} ${raw.length}`),
      enqueue: async (key, size) => {
        events.push(`enqueue ${key} ${size}`);
        return 'inb_1';
      },
    });
    expect(await store(Buffer.from('12345'), session)).toBe('inb_1');
    expect(events).toEqual(['put inbound/raw/01.eml 5', 'enqueue inbound/raw/01.eml 5']);
  });
});
