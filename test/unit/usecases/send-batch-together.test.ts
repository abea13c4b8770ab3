/**
 * A batch's emails are written together (shared/usecases/send/batch-acceptance.ts): each item goes through the
 * send core, and its accept waits for the items running beside it, up to a BatchWriteItem's worth (25); an item
 * refused before its accept holds nobody up; an email the store could not write fails alone, as a single
 * send's failed write does.
 */
import { BatchAcceptance } from '#shared/usecases/send/batch-acceptance';
import { sendBatch } from '#shared/usecases/send/send-batch';
import type { AcceptRequest } from '#shared/adapters/store/emails/accept-request';
import { batchPrincipal, batchSendDeps } from './send-fakes';

const principal = batchPrincipal;
const batchDeps = batchSendDeps;

const item = (n: number, extra: Record<string, unknown> = {}) => ({
  from: 'a@acme.test',
  to: `x${n}@example.com`,
  subject: 's',
  text: 't',
  ...extra,
});

describe("a batch's emails written together", () => {
  it('writes 100 items in groups of at most 25 (4 writes, not 100), each item answered with its own email', async () => {
    const { deps, world } = batchDeps();
    const answer = await sendBatch(
      deps,
      principal,
      Array.from({ length: 100 }, (_, n) => item(n)),
    );
    expect(answer.data.every((one) => one.status === 'sent')).toBe(true);
    expect(world.acceptedTogether).toEqual([25, 25, 25, 25]);
    // Index-aligned: item n's answer is the email sent to x<n>@.
    const byId = new Map(world.accepted.map((request) => [request.email.id, request.email.to[0]]));
    expect(answer.data.map((one) => byId.get(one.id!))).toEqual(Array.from({ length: 100 }, (_, n) => `x${n}@example.com`));
  });

  it('leaves out the items refused before their accept: the others are written without waiting for them', async () => {
    const { deps, world } = batchDeps();
    const items = Array.from({ length: 10 }, (_, n) => (n % 3 === 0 ? item(n, { from: 'a@unverified.test' }) : item(n)));
    const answer = await sendBatch(deps, principal, items);
    expect(answer.data.map((one) => one.status)).toEqual(items.map((_, n) => (n % 3 === 0 ? 'failed' : 'sent')));
    expect(world.acceptedTogether).toEqual([6]);
  });

  it("fails an item whose email the store could not write (503, retry it), as a single send's failed write; the others are sent", async () => {
    const { deps, world } = batchDeps();
    const together = deps.emails.acceptTogether;
    deps.emails.acceptTogether = async (requests) => {
      const results = await together(requests);
      return results.map((result, i) =>
        requests[i]!.email.to[0] === 'x1@example.com' ? { ok: false as const, error: new Error('left') } : result,
      );
    };
    const answer = await sendBatch(deps, principal, [item(0), item(1), item(2)]);
    expect(answer.data.map((one) => one.status)).toEqual(['sent', 'failed', 'sent']);
    expect(answer.data[1]!.error).toMatchObject({ code: 'service_unavailable' });
    expect(world.acceptedTogether).toEqual([3]);
  });
});

describe('the batch acceptance', () => {
  it('holds each accept until every running item has reached its own or ended, then writes them in one call', async () => {
    const groups: string[][] = [];
    const acceptance = new BatchAcceptance({
      acceptTogether: async (requests) => {
        groups.push(requests.map((request) => request.email.id));
        return requests.map(() => ({ ok: true as const, outcome: { kind: 'accepted' as const, reserved: [] } }));
      },
      create: async () => undefined,
    });
    const request = (id: string) => ({ email: { id } }) as unknown as AcceptRequest;
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const a = acceptance.item(() => acceptance.emails.accept(request('a')));
    const b = acceptance.item(async () => {
      await slow;
      return acceptance.emails.accept(request('b'));
    });
    const c = acceptance.item(async () => {
      await slow;
      throw new Error('refused before its accept');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(groups).toEqual([]);
    release();
    await expect(c).rejects.toThrow('refused');
    expect((await a).kind).toBe('accepted');
    expect((await b).kind).toBe('accepted');
    expect(groups).toEqual([['a', 'b']]);
  });
});
