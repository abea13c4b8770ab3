/** The process tree of a spawned stack: its pids, memory (RSS) and CPU time per kind of process (Linux /proc). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export function descendants(pid: number): number[] {
  const out = execFileSync('ps', ['-eo', 'pid,ppid'], { encoding: 'utf8' });
  const children = new Map<number, number[]>();
  for (const line of out.trim().split('\n').slice(1)) {
    const [child, parent] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const all: number[] = [];
  const walk = (p: number) => {
    all.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return all;
}

/** A process's RSS in MB (its /proc status' VmRSS); null once it has exited. */
function processRssMb(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return (match ? Number(match[1]) : 0) / 1024;
  } catch {
    return null; // exited
  }
}

export function rssMb(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + (processRssMb(pid) ?? 0), 0);
}

/** Each process's RSS in MB with a short name (the script or jar it runs), largest first; processes under 5 MB (shells) left out. */
export function rssByProcess(pids: number[]): { pid: number; name: string; mb: number }[] {
  return pids
    .flatMap((pid) => {
      const mb = processRssMb(pid);
      if (mb === null) return [];
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        const named = args.find((arg) => /\.(c?js|ts|jar)$/.test(arg)) ?? args[0] ?? '?';
        return [{ pid, name: named.split('/').pop()!, mb }];
      } catch {
        return []; // exited
      }
    })
    .filter((process) => process.mb >= 5)
    .sort((a, b) => b.mb - a.mb);
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system) used so far by each process of the tree, keyed by its command name. */
export function cpuSecondsByCommand(pids: number[]): Record<string, number> {
  const byCommand: Record<string, number> = {};
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // comm is in parentheses and may contain spaces; fields after it are space-separated.
      const close = stat.lastIndexOf(')');
      const command = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // utime and stime are fields 14 and 15 of the whole line, i.e. 11 and 12 after the comm.
      const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      byCommand[command] = (byCommand[command] ?? 0) + seconds;
    } catch {
      // exited
    }
  }
  return byCommand;
}

export function diffCpu(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [command, seconds] of Object.entries(after)) out[command] = seconds - (before[command] ?? 0);
  return out;
}

/** What a process of the stack's tree is, from its command line. */
export type ProcessRole = 'stack Node' | 'tsx launcher' | 'DynamoDB Local (Java)' | 'other';

export function roleOf(pid: number): ProcessRole {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const exe = cmdline[0] ?? '';
    if (/java$/.test(exe) || cmdline.some((arg) => arg.includes('DynamoDBLocal'))) return 'DynamoDB Local (Java)';
    if (/node$/.test(exe)) return cmdline.some((arg) => arg.endsWith('tsx/dist/cli.mjs')) ? 'tsx launcher' : 'stack Node';
    return 'other';
  } catch {
    return 'other';
  }
}

function ticksOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU seconds (user + system) so far of each process, keyed by role (the roles' processes summed). */
export function cpuSecondsByRole(pids: number[]): Record<ProcessRole, number> {
  const out: Record<ProcessRole, number> = { 'stack Node': 0, 'tsx launcher': 0, 'DynamoDB Local (Java)': 0, other: 0 };
  for (const pid of pids) {
    try {
      out[roleOf(pid)] += ticksOf(`/proc/${pid}/stat`) / TICKS_PER_SECOND;
    } catch {
      // exited
    }
  }
  return out;
}

/** CPU seconds so far of one OS thread (tid) of a process, or NaN when it is gone. */
export function threadCpuSeconds(pid: number, tid: number): number {
  try {
    return ticksOf(`/proc/${pid}/task/${tid}/stat`) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}
