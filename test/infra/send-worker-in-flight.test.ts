/**
 * The pacer's window (shared/usecases/delivery/pace.ts, inlineWaitMs) is sized by the send-queue records the
 * send worker handles at once: SEND_WORKER_IN_FLIGHT must be its event source's batchSize x maxConcurrency.
 */
import { WORKERS } from '#infra/definitions';
import { SEND_WORKER_IN_FLIGHT } from '#shared/domain/ses/send-quota';

it('SEND_WORKER_IN_FLIGHT is the send worker’s batchSize x maxConcurrency', () => {
  const worker = WORKERS.find((w) => w.name === 'send-email')!;
  expect(worker.batchSize * worker.maxConcurrency!).toBe(SEND_WORKER_IN_FLIGHT);
});
