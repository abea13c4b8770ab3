/**
 * --cpu-prof: per phase and thread, the sampled busy time next to the thread's CPU time from /proc, by
 * kind of work; for API phases also by component and the hottest functions.
 */
import { bucketOf } from '../../lib/cpu-profile';
import { table } from '../../lib/stats';
import type { ReportContext } from './report-context';

export function printCpuProfiles({ print, all, phaseName }: ReportContext) {
  for (const phase of all) {
    if (!phase.profiles?.length) continue;
    const n = phase.result.ok || 1;
    print();
    print(
      `CPU profile, ${phaseName(phase)}, per thread. Busy = sampled time not idle: wall time in JavaScript, native code or GC, which includes waiting for a core when the machine is oversubscribed; the CPU column is the thread's CPU time from /proc for the same window:`,
    );
    const threads = phase.profiles.filter(({ summary }) => summary.totalMs > 0);
    print(
      table(
        ['thread', 'busy ms', 'busy % of the window', 'busy ms/email', 'CPU ms/email (/proc)'],
        threads.map(({ label, summary }) => {
          const busy = summary.totalMs - summary.idleMs;
          const cpu = phase.cpu.threads[label];
          return [
            label,
            busy.toFixed(0),
            ((100 * busy) / (summary.totalMs || 1)).toFixed(0),
            (busy / n).toFixed(2),
            cpu !== undefined && Number.isFinite(cpu) ? ((cpu * 1000) / n).toFixed(2) : '-',
          ];
        }),
      ),
    );
    for (const { label, summary } of threads) {
      const busy = summary.totalMs - summary.idleMs;
      if (busy < 0.05 * summary.totalMs && busy < 200) continue;
      const buckets = new Map<string, number>();
      for (const component of summary.components)
        buckets.set(bucketOf(component.name), (buckets.get(bucketOf(component.name)) ?? 0) + component.ms);
      buckets.delete('(idle)');
      print(`  ${label}, by kind of work:`);
      for (const [bucket, time] of [...buckets].sort((a, b) => b[1] - a[1]).slice(0, 10))
        print(`  ${((100 * time) / busy).toFixed(1).padStart(5)}%  ${bucket}`);
      if (phase.name !== 'API') continue;
      print(`  ${label}, by component:`);
      for (const component of summary.components.filter((c) => c.name !== '(idle)').slice(0, 10))
        print(`  ${((100 * component.ms) / busy).toFixed(1).padStart(5)}%  ${component.name}`);
      print(`  ${label}, hottest functions:`);
      for (const fn of summary.functions.filter((f) => !f.name.startsWith('(idle)')).slice(0, 10))
        print(`  ${((100 * fn.ms) / busy).toFixed(1).padStart(5)}%  ${fn.name}`);
    }
  }
}
