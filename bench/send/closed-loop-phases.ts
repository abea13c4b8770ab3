/**
 * The closed-loop phases in their order: a warm-up at c=8 (JIT, connection pools, DynamoDB Local's JVM:
 * --warmup of API, then the same time shared by the floors, at least 2 s each), then for each concurrency
 * the API (once per body size of --html-kb, side by side) and each floor for --duration.
 */
import { log } from './log';
import type { MeasurePhase } from './measure/measure-phase';
import type { FloorName } from './options';
import type { Measured } from './results';

const WARM_UP_CONCURRENCY = 8;

export async function warmUp(measure: MeasurePhase, label: string, warmupMs: number, floorNames: FloorName[]): Promise<void> {
  const floorWarmMs = floorNames.length ? Math.max(2000, warmupMs / floorNames.length) : 0;
  log(
    `${label}: warm-up ${warmupMs / 1000} s API${floorNames.length ? ` and ${(floorWarmMs / 1000).toFixed(1)} s per floor (${floorNames.join(', ')})` : ''} at concurrency ${WARM_UP_CONCURRENCY}`,
  );
  const warm = [await measure('API', WARM_UP_CONCURRENCY, warmupMs)];
  for (const floor of floorNames) warm.push(await measure(`floor ${floor}`, WARM_UP_CONCURRENCY, floorWarmMs, floor));
  for (const phase of warm) if (phase.result.errors) log(`warm-up errors (${phase.name}): ${JSON.stringify(phase.result.outcomes)}`);
}

/** The API phase's name for a body of `kb` KB of html: 'API' for the short text alone (the headline). */
export const apiPhaseName = (kb: number) => (kb ? `API ${kb} KB html` : 'API');

export async function measuredPhases(
  measure: MeasurePhase,
  label: string,
  concurrencies: number[],
  durationMs: number,
  floorNames: FloorName[],
  bodies: { sizes: number[]; use(kb: number): void } = { sizes: [0], use: () => undefined },
): Promise<Measured[]> {
  const phases: Measured[] = [];
  for (const concurrency of concurrencies) {
    const runs = [...bodies.sizes.map((kb) => ({ kb, floor: undefined })), ...floorNames.map((floor) => ({ kb: bodies.sizes[0]!, floor }))];
    for (const { kb, floor } of runs) {
      bodies.use(kb);
      const name = floor ? `floor ${floor}` : apiPhaseName(kb);
      log(`${label}: ${name} at concurrency ${concurrency} for ${durationMs / 1000} s`);
      const phase = await measure(name, concurrency, durationMs, floor);
      log(
        `  ${phase.result.latencies.length} requests, ${phase.result.errors} errors; backlog ${phase.backlog} drained in ${(phase.drainMs / 1000).toFixed(1)} s`,
      );
      phases.push(phase);
    }
  }
  return phases;
}
