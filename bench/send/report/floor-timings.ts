/** The floors' mean ms per step at each concurrency, and their TransactWriteItems attempts per send. */
import { ms, table } from '../../lib/stats';
import type { ReportContext } from './report-context';

export function printFloorTimings({ print, all, options }: ReportContext) {
  const floorPhases = all.filter((phase) => phase.steps);
  if (!floorPhases.length) return;
  print('Floors, mean ms per step (as seen by the client, queueing in the SDK and the emulator included):');
  print();
  for (const floor of options.floors) {
    const these = floorPhases.filter((phase) => phase.floor === floor);
    if (!these.length) continue;
    print(
      table(
        [`floor ${floor}: step`, ...these.map((phase) => `c=${phase.result.concurrency}`)],
        [
          ...these[0]!.steps!.map((step, i) => [step.name, ...these.map((phase) => ms(phase.steps![i]!.meanMs, 2))]),
          ['TransactWriteItems attempts per send', ...these.map((phase) => phase.transactAttemptsPerSend!.toFixed(2))],
        ],
      ),
    );
    print();
  }
}
