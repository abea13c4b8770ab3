/**
 * The service's clock. On AWS it is the system clock. The embedded local cloud can move it forward or
 * back (PUT /_local/clock) so that tests can cross UTC days (tenant ramps, day counters) without
 * waiting: every function of the stack reads one shared offset (a SharedArrayBuffer cell given to each
 * thread by localstack/cloud/stack/local-clock.ts). Product code never sets the offset; without a cell it is 0.
 */
import type { Clock } from '../ports/clock';

let offsetCell: Float64Array | null = null;

/** Called by the local cloud in each thread it runs functions in; never on AWS. */
export function shareClockOffset(cell: SharedArrayBuffer): void {
  offsetCell = new Float64Array(cell);
}

export const serviceClock: Clock = {
  now: () => new Date(offsetCell ? Date.now() + offsetCell[0]! : Date.now()),
};
