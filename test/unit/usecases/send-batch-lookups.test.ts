/**
 * The bound on the recipient domains one request has looked up (docs/deliverability.md, "Validating at send
 * time"; shared/domain/address-validation/lookup-bound.ts): a batch whose items with `validate: true` name more than
 * 50 distinct domains is refused whole with 400 before any item is sent or looked up; items without
 * `validate` do not count.
 */
import { sendBatch } from '#shared/usecases/send/send-batch';
import { MAX_LOOKUP_DOMAINS } from '#shared/domain/address-validation/lookup-bound';
import { batchPrincipal, batchSendDeps } from './send-fakes';

const principal = batchPrincipal;
const batchDeps = batchSendDeps;

/** `n` single-recipient items, each at a domain of its own. */
const items = (n: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) => ({ from: 'a@acme.test', to: `x@d${i}.example`, subject: 's', text: 't', ...extra }));

describe('the lookup bound of one request', () => {
  it(`refuses a batch whose validated items name ${MAX_LOOKUP_DOMAINS + 1} domains: 400 naming the bound, nothing sent or looked up`, async () => {
    const { deps, world } = batchDeps();
    await expect(sendBatch(deps, principal, items(MAX_LOOKUP_DOMAINS + 1, { validate: true }))).rejects.toMatchObject({
      status: 400,
      code: 'validation_error',
      details: { reason: 'too_many_lookup_domains', limit: MAX_LOOKUP_DOMAINS, domains: MAX_LOOKUP_DOMAINS + 1 },
    });
    expect(world.mailHostLookups).toEqual([]);
    expect(world.accepted).toHaveLength(0);
    expect(world.allowanceHits).toEqual([]);
  });

  it(`sends a batch at the bound (${MAX_LOOKUP_DOMAINS} domains), and items without validate beside it: their domains are not counted`, async () => {
    const { deps, world } = batchDeps();
    const answer = await sendBatch(deps, principal, [
      ...items(MAX_LOOKUP_DOMAINS, { validate: true }),
      ...items(30).map((item, i) => ({ ...item, to: `y@other${i}.example` })),
    ]);
    expect(answer.data.every((item) => item.status === 'sent')).toBe(true);
    expect(new Set(world.mailHostLookups).size).toBe(MAX_LOOKUP_DOMAINS);
    expect(world.accepted).toHaveLength(MAX_LOOKUP_DOMAINS + 30);
  });
});
