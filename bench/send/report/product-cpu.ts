/**
 * --cpu-prof: the product's own CPU per delivered email, apart from the emulators' (issue 49, item 7: at most
 * 12 ms at c=16). From the phase's start until its backlog was delivered, each thread of the stack's process
 * has its CPU time from /proc, and its profile says whose work the busy samples were (lib/cpu-profile.ts,
 * `ownerOf`: the functions' code and what it calls, the stand-ins for AWS, or neither). A thread's CPU is
 * split in the proportions of its samples; the threads without a profile (GC, libuv, V8 helpers) are
 * unattributed. The estimate gives the unattributed CPU to the product in the product's share of what was
 * attributed; the attributed figure alone is the lower bound. DynamoDB Local's JVM is an emulator's.
 */
import { splitByOwner, type Owner } from '../../lib/cpu-profile';
import { table } from '../../lib/stats';
import type { Measured } from '../results';
import type { ReportContext } from './report-context';

/** The goal per delivered email, at c=16 (issue 49). */
export const PRODUCT_CPU_GOAL_MS = 12;

interface OwnerSplit {
  /** Seconds of CPU by owner, over the stack's Node process. */
  seconds: Record<Owner, number>;
  rows: { label: string; seconds: Record<Owner, number> }[];
}

/** The stack process's CPU from the phase's start to drained, split by owner. */
export function productCpuOf(phase: Measured): OwnerSplit | null {
  if (!phase.profilesWithDrain?.length) return null;
  const rows: OwnerSplit['rows'] = [];
  const seconds: Record<Owner, number> = { product: 0, emulators: 0, unattributed: 0 };
  let named = 0;
  for (const { label, summary } of phase.profilesWithDrain) {
    const cpu = phase.cpuWithDrain.threads[label];
    if (cpu === undefined || !Number.isFinite(cpu)) continue;
    named += cpu;
    const row = splitByOwner(cpu, summary.owners);
    rows.push({ label, seconds: row });
    for (const owner of Object.keys(seconds) as Owner[]) seconds[owner] += row[owner];
  }
  const others = Math.max(0, phase.cpuWithDrain.roles['stack Node'] - named);
  rows.push({ label: 'other threads (GC, libuv, V8)', seconds: { product: 0, emulators: 0, unattributed: others } });
  seconds.unattributed += others;
  return { seconds, rows };
}

/** The estimate: the attributed product CPU, plus the unattributed in the product's share of the attributed. */
export function productEstimate(split: OwnerSplit): number {
  const attributed = split.seconds.product + split.seconds.emulators;
  return split.seconds.product + (attributed > 0 ? (split.seconds.unattributed * split.seconds.product) / attributed : 0);
}

export function printProductCpu({ print, all, phaseName }: ReportContext) {
  const phases = all.filter((phase) => phase.name === 'API' && phase.profilesWithDrain?.length);
  if (!phases.length) return;
  print();
  print(
    `The product's own CPU per delivered email, apart from the emulators' (goal at most ${PRODUCT_CPU_GOAL_MS} ms at c=16), phase start to drained: each stack thread's CPU (/proc) split by whose work its profile's samples were (the functions and what they call; the stand-ins for AWS: emulators, API gateway, Lambda adapter, pollers; neither). DynamoDB Local's JVM is not counted (an emulator):`,
  );
  print();
  const ms = (seconds: number, phase: Measured) => ((seconds * 1000) / (phase.result.ok || 1)).toFixed(2);
  const rows: string[][] = [];
  for (const phase of phases) {
    const split = productCpuOf(phase)!;
    for (const row of split.rows)
      rows.push([
        phaseName(phase),
        row.label,
        ms(row.seconds.product, phase),
        ms(row.seconds.emulators, phase),
        ms(row.seconds.unattributed, phase),
        '',
      ]);
    const estimate = productEstimate(split);
    const perEmail = (estimate * 1000) / (phase.result.ok || 1);
    const verdict = phase.result.concurrency === 16 ? (perEmail <= PRODUCT_CPU_GOAL_MS ? ' (PASS)' : ' (MISS)') : '';
    rows.push([
      phaseName(phase),
      'all',
      ms(split.seconds.product, phase),
      ms(split.seconds.emulators, phase),
      ms(split.seconds.unattributed, phase),
      `${perEmail.toFixed(2)}${verdict}`,
    ]);
  }
  print(table(['phase', 'thread', 'product ms/email', 'emulators ms/email', 'unattributed ms/email', 'product, estimated'], rows));
}
