/**
 * The pass's re-drives, sent once every entry is handled: emails to the send queue (batched, 10 a
 * call), automation steps to the automation-steps queue (all at once). An entry's due time is moved
 * only once its message is on the queue; one the queue refused stays due, counted as an error, and the
 * next pass tries it again.
 */
import type { AutomationStepQueue, SendQueue } from '#shared/ports/queues';
import type { Count, PassLog, RedriveSend, RedriveStep } from './recovery-pass';

export async function redriveSends(
  sendQueue: Pick<SendQueue, 'enqueueMany'>,
  sends: RedriveSend[],
  count: Count,
  log: PassLog,
): Promise<void> {
  if (sends.length === 0) return;
  const { failed } = await sendQueue.enqueueMany(sends.map((send) => send.message));
  const refused = new Set(failed);
  count('errors', refused.size);
  await Promise.all(
    sends.map(async (send, position) => {
      if (refused.has(position)) return;
      count(send.stage === 'queued' ? 'redriven_queued' : 'redriven_scheduled');
      try {
        await send.postpone();
      } catch (error) {
        count('errors');
        log(`reconcile: postponing ${send.message.email_id} failed`, error);
      }
    }),
  );
}

export async function redriveSteps(stepQueue: AutomationStepQueue, steps: RedriveStep[], count: Count, log: PassLog): Promise<void> {
  if (steps.length === 0) return;
  try {
    await stepQueue.enqueueAll(steps.map((step) => step.message));
  } catch (error) {
    // Not postponed: they stay due and the next pass tries again.
    count('errors', steps.length);
    log('reconcile: the automation-steps queue refused re-driven steps', error);
    return;
  }
  count('redriven_runs', steps.length);
  await Promise.all(
    steps.map((step) =>
      step.postpone().catch((error: unknown) => {
        count('errors');
        log(`reconcile: postponing run ${step.message.run_id} failed`, error);
      }),
    ),
  );
}
