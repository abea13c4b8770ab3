/** A program's start figures over its runs (bench/cli.ts): median and slowest wall time, median CPU. */

export interface StartRun {
  wallMs: number;
  /** NaN when the run's CPU could not be read. */
  cpuMs: number;
}

export interface StartFigures {
  runs: number;
  wall: { median: number; max: number };
  cpu: { median: number };
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function startFigures(runs: StartRun[]): StartFigures {
  const walls = runs.map((run) => run.wallMs);
  return {
    runs: runs.length,
    wall: { median: median(walls), max: walls.length ? Math.max(...walls) : Number.NaN },
    cpu: { median: median(runs.map((run) => run.cpuMs).filter((cpu) => Number.isFinite(cpu))) },
  };
}
