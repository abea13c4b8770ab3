/**
 * CPU per email: per accepted email during the phase and per delivered email until drained, by process
 * (the stack's Node process split into its JS threads when a preload reported their ids, DynamoDB
 * Local's JVM, this process, the launcher), and each process's share of the 2 cores during the phase.
 */
import { table } from '../../lib/stats';
import type { CpuSplit, Measured } from '../results';
import type { ReportContext } from './report-context';

export function printCpu({ print, all, results, phaseName }: ReportContext) {
  const threadLabels = [...new Set(results.flatMap((result) => result.threadLabels))];
  const row = (phase: Measured, split: CpuSplit, per: number) => {
    const cell = (seconds: number) => (Number.isFinite(seconds) ? ((seconds * 1000) / (per || 1)).toFixed(2) : '-');
    const stack = split.roles['stack Node'];
    const named = threadLabels.map((label) => split.threads[label] ?? NaN);
    const others = stack - named.filter(Number.isFinite).reduce((a, b) => a + b, 0);
    const threadCells = threadLabels.length ? [...named.map(cell), cell(others)] : [];
    return [
      phaseName(phase),
      String(per),
      cell(stack),
      ...threadCells,
      cell(split.roles['DynamoDB Local (Java)']),
      cell(split.bench),
      cell(split.roles['tsx launcher'] + split.roles.other),
    ];
  };
  const header = (what: string) => [
    'phase',
    what,
    'stack Node (all threads)',
    ...(threadLabels.length ? [...threadLabels.map((label) => `of which ${label}`), 'of which other threads (GC, libuv, V8)'] : []),
    'DynamoDB Local (Java)',
    'bench process',
    'tsx launcher + bash',
  ];
  print(
    'CPU ms per accepted email during the phase (processes from /proc; threads from /proc/<pid>/task/<tid> when a preload reported their ids):',
  );
  print();
  print(
    table(
      header('accepted'),
      all.map((phase) => row(phase, phase.cpu, phase.result.ok)),
    ),
  );
  print();
  print(
    "CPU ms per delivered email, from the phase's start until its backlog was delivered (the whole pipeline: every email of the phase is delivered by then):",
  );
  print();
  print(
    table(
      header('delivered'),
      all.map((phase) => row(phase, phase.cpuWithDrain, phase.result.ok)),
    ),
  );
  print();
  print('Share of the 2 cores during the phase (CPU seconds / wall second):');
  print();
  print(
    table(
      ['phase', 'wall s', 'stack Node', 'DynamoDB Local', 'bench', 'total', 'backlog at end', 'drain s'],
      all.map((phase) => {
        const wall = phase.result.elapsedMs / 1000;
        const stack = phase.cpu.roles['stack Node'];
        const java = phase.cpu.roles['DynamoDB Local (Java)'];
        return [
          phaseName(phase),
          wall.toFixed(1),
          (stack / wall).toFixed(2),
          (java / wall).toFixed(2),
          (phase.cpu.bench / wall).toFixed(2),
          ((stack + java + phase.cpu.bench) / wall).toFixed(2),
          String(phase.backlog),
          (phase.drainMs / 1000).toFixed(1),
        ];
      }),
    ),
  );
  print();
}
