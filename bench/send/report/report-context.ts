/**
 * What every section of the report reads: the lines printed so far, the results (the current checkout
 * first), every measured phase, a phase's name in the tables (prefixed by its checkout when there are
 * several), and the options the run had.
 */
import type { SendBenchOptions } from '../options';
import type { Measured, TargetResult } from '../results';

export interface ReportContext {
  print(line?: string): void;
  results: TargetResult[];
  /** The current checkout's result (the floors were measured against it). */
  current: TargetResult;
  all: Measured[];
  phaseName(phase: Measured): string;
  options: SendBenchOptions;
}

export function reportContext(results: TargetResult[], options: SendBenchOptions, out: string[]): ReportContext {
  const several = results.length > 1;
  return {
    print: (line = '') => out.push(line),
    results,
    current: results[0]!,
    all: results.flatMap((result) => result.phases),
    phaseName: (phase) => `${several ? `${phase.target}: ` : ''}${phase.name} c=${phase.result.concurrency}`,
    options,
  };
}

/** Requests per second of a phase (NaN when there is none). */
export const rateOf = (phase: Measured | undefined) => (phase ? (phase.result.latencies.length / phase.result.elapsedMs) * 1000 : NaN);

/** `count` per accepted (and, once drained, delivered) email of the phase, 2 decimals. */
export const perEmail = (count: number, phase: Measured) => (count / (phase.result.ok || 1)).toFixed(2);
