/**
 * The due index's keys decoded by the store (shared/adapters/store/due-work.ts) into typed entries carrying their
 * item's ids, checked against the keys the repositories write (dueAttributes, deliveryDueId), so the
 * reconciler never reads a key.
 */
import { dueAttributes } from '#shared/adapters/store/due-index';
import { parseDueKey } from '#shared/adapters/store/due-work';
import { deliveryDueId } from '#shared/adapters/store/webhook-deliveries';

const DUE = Date.parse('2026-11-22T12:00:00.000Z');
const AT = new Date(DUE).toISOString();
const ULID = '01JD0000000000000000000001';

describe('parseDueKey', () => {
  it.each([
    ['EMAIL', 'msg_1', { kind: 'EMAIL', emailId: 'msg_1', dueAt: AT }],
    ['RUN', 'run_1', { kind: 'RUN', runId: 'run_1', dueAt: AT }],
    ['DOMAIN', 'dom_1', { kind: 'DOMAIN', domainId: 'dom_1', dueAt: AT }],
    ['DELIVERY', deliveryDueId('wh_1', ULID), { kind: 'DELIVERY', webhookId: 'wh_1', deliveryId: `whd_${ULID}`, dueAt: AT }],
  ] as const)('decodes a %s key the repositories write into its ids', (kind, id, entry) => {
    expect(parseDueKey(dueAttributes(kind, id, DUE).GSI2SK)).toEqual(entry);
  });

  it.each([
    ['no kind', AT],
    ['an unknown kind', `${AT}#TENANT#ten_1`],
    ['a delivery without its endpoint', `${AT}#DELIVERY#${ULID}`],
  ])('skips a key with %s', (_what, sortKey) => {
    expect(parseDueKey(sortKey)).toBeNull();
  });
});
