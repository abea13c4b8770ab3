/**
 * The stack process's JS threads (API thread, workers thread, tsx's loader-hooks thread, ...) with their
 * OS thread ids, as the preloads reported them (the SDK preload's states, the CPU profiles' file names),
 * and the label each thread has in the report.
 */
import { basename } from 'node:path';
import { profiledThreads, type ProfiledThread } from '../../lib/cpu-profile';
import { readSdkStates, type SdkThreadState } from '../../lib/observe';
import { sleep } from '../clock';
import { SETTLE_MS } from './sdk-counts';

export interface StackThread {
  label: string;
  tid: number;
}

/** Once the preloads have reported: the threads named by the SDK preload (`sdkDir`) and by the CPU profiles (`profDir`). */
export async function discoverStackThreads(stackPid: number, reports: { sdkDir?: string; profDir?: string }): Promise<StackThread[]> {
  if (reports.sdkDir || reports.profDir) await sleep(SETTLE_MS);
  return stackThreads(
    stackPid,
    reports.sdkDir ? [...readSdkStates(reports.sdkDir).values()] : [],
    reports.profDir ? profiledThreads(reports.profDir) : [],
  );
}

function stackThreads(stackPid: number, sdk: SdkThreadState[], profiled: ProfiledThread[]): StackThread[] {
  const byThread = new Map<number, StackThread>();
  for (const state of sdk)
    if (state.pid === stackPid && state.tid)
      byThread.set(state.threadId, {
        label: threadLabel({ ...state, role: state.mainThread ? 'main' : 'worker' }, stackPid),
        tid: state.tid,
      });
  for (const thread of profiled)
    if (thread.pid === stackPid && thread.tid && !byThread.has(thread.threadId))
      byThread.set(thread.threadId, { label: threadLabel(thread, stackPid), tid: thread.tid });
  return [...byThread.entries()].sort((a, b) => a[0] - b[0]).map(([, thread]) => thread);
}

export function threadLabel(thread: { pid: number; threadId: number; role: string; argv1: string }, stackPid: number): string {
  const process = thread.pid === stackPid ? 'stack' : `pid ${thread.pid}${thread.argv1.endsWith('cli.mjs') ? ' (tsx launcher)' : ''}`;
  if (thread.role === 'main') return thread.pid === stackPid ? 'API thread' : `${process} main`;
  if (thread.role === 'loader-hooks') return thread.pid === stackPid ? 'tsx loader-hooks thread' : `${process} tsx loader-hooks thread`;
  // From the sources (tsx) or the bundles (localstack/launch.cjs).
  if (/(workers-thread-entry|local-cloud-workers)\.cjs$/.test(thread.argv1)) return 'workers thread';
  return `${process} thread ${thread.threadId}${thread.argv1 ? ` (${basename(thread.argv1)})` : ''}`;
}
