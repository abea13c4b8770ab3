/**
 * The API against the floors: each checkout's API rate next to each floor's (the floors measured against
 * the current stack) per concurrency, as a table of ratios and as the targets' API >= 0.5 x floor.
 */
import { table } from '../../lib/stats';
import type { Measured } from '../results';
import { rateOf, type ReportContext } from './report-context';

/** The phase `name` of checkout `target` at concurrency `c`. */
export const phaseOf = (all: Measured[], target: string, name: string, c: number) =>
  all.find((phase) => phase.target === target && phase.name === name && phase.result.concurrency === c);

/** API req/s over floor req/s at concurrency `c`. */
export const apiOverFloor = ({ all, current }: ReportContext, target: string, floor: string, c: number) =>
  rateOf(phaseOf(all, target, 'API', c)) / rateOf(phaseOf(all, current.label, `floor ${floor}`, c));

export function printFloorRatios(context: ReportContext) {
  const { print, all, results, current, options } = context;
  const floors = options.floors;
  if (!floors.length) return;
  const ratios = options.concurrencies.map((c) => {
    const cells = [String(c)];
    for (const result of results) cells.push(rateOf(phaseOf(all, result.label, 'API', c)).toFixed(0));
    for (const floor of floors) cells.push(rateOf(phaseOf(all, current.label, `floor ${floor}`, c)).toFixed(0));
    for (const result of results) for (const floor of floors) cells.push(apiOverFloor(context, result.label, floor, c).toFixed(2));
    return cells;
  });
  print('API / floor (req/s; floors measured against the current stack):');
  print();
  print(
    table(
      [
        'c',
        ...results.map((result) => `${result.label} API`),
        ...floors.map((floor) => `floor ${floor}`),
        ...results.flatMap((result) => floors.map((floor) => `${result.label} / ${floor}`)),
      ],
      ratios,
    ),
  );
  print();
}
