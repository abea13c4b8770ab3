/**
 * CPU time of processes from Linux's /proc (utime, stime and the reaped children's cutime, cstime of
 * /proc/<pid>/stat, in clock ticks of 10 ms: USER_HZ is 100 on Linux), for the test run's CPU report
 * (./jest-wall-time-reporter.js, ./file-cpu-setup.ts). Elsewhere every function answers null.
 *
 * A process's figure is its own CPU and its reaped children's: when a child exits and is waited for, its
 * time moves from the child to its parent, so a tree's sum runs on without a jump.
 */
'use strict';
const { readFileSync, readdirSync } = require('node:fs');

const TICK_MS = 10;
const onLinux = process.platform === 'linux';

/** { ppid, ms } of one process, or null when it is gone (or not on Linux). */
function processCpu(pid) {
  if (!onLinux) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's closing parenthesis: state (3), ppid (4), ... utime (14) to cstime (17).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    return { ppid: Number(fields[1]), ms: ticks * TICK_MS };
  } catch {
    return null;
  }
}

/** This process's CPU milliseconds, its reaped children's included; null off Linux. */
function ownCpuMs() {
  return processCpu('self')?.ms ?? null;
}

/** Every live process: pid -> { ppid, ms }; null off Linux. */
function processTable() {
  if (!onLinux) return null;
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cpu = processCpu(name);
    if (cpu) table.set(Number(name), cpu);
  }
  return table;
}

/** The CPU milliseconds of `root` and every live descendant, leaving out the subtrees of `excluded` pids. */
function treeCpuMs(table, root, excluded = new Set()) {
  const children = new Map();
  for (const [pid, { ppid }] of table) {
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop();
    if (excluded.has(pid)) continue;
    total += table.get(pid)?.ms ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/**
 * /proc/stat's `cpu` line as { idle (idle and iowait), steal, total } clock ticks. `steal` (proc(5): "time spent
 * in other operating systems when running in a virtualized environment") is time the host gave another guest while
 * this machine had work: counted busy in `total - idle`, yet no process of ours ran then, so a run with steal is
 * slower for the same CPU figures. Fields: user nice system idle iowait irq softirq steal guest guest_nice; guest
 * time is already counted in user and nice, so the total stops at steal.
 */
function cpuTicksOf(line) {
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  return { idle: fields[3] + (fields[4] ?? 0), steal: fields[7] ?? 0, total: fields.slice(0, 8).reduce((sum, value) => sum + value, 0) };
}

/** The machine's CPU time since boot (cpuTicksOf); null off Linux. */
function machineTicks() {
  if (!onLinux) return null;
  try {
    return cpuTicksOf(readFileSync('/proc/stat', 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

module.exports = { cpuTicksOf, machineTicks, ownCpuMs, processCpu, processTable, treeCpuMs };
