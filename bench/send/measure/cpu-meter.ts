/**
 * CPU time between two moments (Linux /proc): each process of the stack's tree by role, the stack
 * process's JS threads by label (when their OS thread ids are known), and this process (the load
 * generator and the floors).
 */
import { cpuSecondsByRole, threadCpuSeconds, type ProcessRole } from '../../lib/process-tree';
import type { CpuSplit } from '../results';
import type { StackThread } from './stack-threads';

export interface CpuMark {
  roles: Record<ProcessRole, number>;
  threads: Record<string, number>;
  bench: NodeJS.CpuUsage;
}

export interface CpuMeter {
  mark(): CpuMark;
  since(mark: CpuMark): CpuSplit;
}

export function cpuMeter(stackPid: number, pids: number[], threads: StackThread[]): CpuMeter {
  const threadCpu = () => Object.fromEntries(threads.map((thread) => [thread.label, threadCpuSeconds(stackPid, thread.tid)]));
  const stackNow = () => ({ roles: cpuSecondsByRole(pids), threads: threadCpu() });
  return {
    mark: () => ({ ...stackNow(), bench: process.cpuUsage() }),
    since: (mark) => {
      const now = stackNow();
      const bench = process.cpuUsage(mark.bench);
      return {
        roles: Object.fromEntries(
          Object.entries(now.roles).map(([role, seconds]) => [role, seconds - mark.roles[role as ProcessRole]]),
        ) as Record<ProcessRole, number>,
        threads: Object.fromEntries(Object.entries(now.threads).map(([label, seconds]) => [label, seconds - (mark.threads[label] ?? NaN)])),
        bench: (bench.user + bench.system) / 1e6,
      };
    },
  };
}
