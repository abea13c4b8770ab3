/**
 * The reconciler's recoverer table (shared/usecases/reliability/reconcile/recoverers.ts) over in-memory fakes of its
 * ports: every kind of the due index has a recoverer, and each entry goes to its own kind's recoverer,
 * which reads its item by the ids the entry carries and touches no other store.
 */
import { DUE_KINDS } from '#shared/adapters/store/due-index';
import type { DueEntry } from '#shared/adapters/store/due-work';
import { RECOVERERS, recoverDueEntry } from '#shared/usecases/reliability/reconcile/recoverers';
import type { PassCounter, RecoveryPass } from '#shared/usecases/reliability/reconcile/recovery-pass';
import { automationRun, email, fakeReconcileDeps, NOW, webhookDelivery } from './fake-reconcile-deps';

const DELIVERY_ID = 'whd_01JD0000000000000000000001';

/** Fakes holding one past-due item of each kind, whose reads are recorded as `<store> <ids>`. */
function fakesOfEachKind() {
  const fakes = fakeReconcileDeps(
    [email('msg_1', { status: 'delivered', last_event: 'delivered' })],
    [webhookDelivery(DELIVERY_ID, 'succeeded')],
    {
      runs: [automationRun({ id: 'run_1', status: 'completed' })],
      pendingDomains: ['dom_1'],
      ses: () => ({ status: 'verified', detail: 'SES can send from the domain.' }),
    },
  );
  const reads: string[] = [];
  const { emails, webhookDeliveries, runs, domains } = fakes.deps;
  fakes.deps.emails = {
    ...emails,
    get: (id) => {
      reads.push(`emails ${id}`);
      return emails.get(id);
    },
  };
  fakes.deps.webhookDeliveries = {
    ...webhookDeliveries,
    get: (webhookId, deliveryId) => {
      reads.push(`webhookDeliveries ${webhookId} ${deliveryId}`);
      return webhookDeliveries.get(webhookId, deliveryId);
    },
  };
  fakes.deps.runs = {
    ...runs,
    get: (id) => {
      reads.push(`runs ${id}`);
      return runs.get(id);
    },
  };
  fakes.deps.domains = {
    ...domains,
    get: (id) => {
      reads.push(`domains ${id}`);
      return domains.get(id);
    },
  };
  return { ...fakes, reads };
}

function newPass(): RecoveryPass & { counted: PassCounter[] } {
  const counted: PassCounter[] = [];
  return { now: NOW, count: (counter) => void counted.push(counter), sends: [], steps: [], counted };
}

const entryOf = (entries: DueEntry[], kind: DueEntry['kind']) => entries.find((entry) => entry.kind === kind)!;

describe('the recoverer table', () => {
  it('has a recoverer for every kind of the due index', () => {
    expect(Object.keys(RECOVERERS).sort()).toEqual([...DUE_KINDS].sort());
  });

  it.each([
    ['EMAIL', ['emails msg_1'], ['cleared']],
    ['DELIVERY', [`webhookDeliveries wh_1 ${DELIVERY_ID}`], ['cleared']],
    ['RUN', ['runs run_1'], ['cleared']],
    ['DOMAIN', ['domains dom_1'], ['domains_completed']],
  ] as const)('hands a %s entry to its recoverer, which reads its item by the entry ids', async (kind, expectedReads, expectedCounts) => {
    const { deps, entries, reads, due, pending } = fakesOfEachKind();
    const pass = newPass();
    await recoverDueEntry(entryOf(entries, kind), deps, pass);
    expect(reads).toEqual(expectedReads);
    expect(pass.counted).toEqual(expectedCounts);
    expect(pass.sends).toEqual([]);
    expect(pass.steps).toEqual([]);
    if (kind === 'DOMAIN') expect(pending.due.has('dom_1')).toBe(false);
    else expect([...due.values()]).toEqual([-1]);
  });

  it('leaves the batched re-drives to the pass: a stranded email and a pending run step are collected, not queued', async () => {
    const fakes = fakeReconcileDeps([email('msg_q', {})], [], { runs: [automationRun({ id: 'run_p' })] });
    const pass = newPass();
    for (const entry of fakes.entries) await recoverDueEntry(entry, fakes.deps, pass);
    expect(pass.sends.map((send) => [send.message, send.stage])).toEqual([[{ email_id: 'msg_q' }, 'queued']]);
    expect(pass.steps.map((step) => step.message)).toEqual([{ run_id: 'run_p', step_index: 0 }]);
    expect(fakes.sent).toEqual([]);
    expect(fakes.stepMessages).toEqual([]);
    expect(fakes.due.size).toBe(0);
  });
});
