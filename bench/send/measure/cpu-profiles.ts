/**
 * --cpu-prof: the stack's CPU profiles (lib/cpu-profile-preload.cjs, written in chunks) summarised per
 * phase and per thread, over each phase's window.
 */
import { profiledThreads, summariseCpuProfiles } from '../../lib/cpu-profile';
import { sleep } from '../clock';
import type { Measured } from '../results';
import { threadLabel } from './stack-threads';

/** How often the preload writes a chunk of each thread's profile. */
export const CPU_PROFILE_CHUNK_MS = 3000;

export async function attachCpuProfiles(phases: Measured[], profDir: string, stackPid: number): Promise<void> {
  // The last chunk of a worker thread is written on the next tick of its chunk timer (a terminated
  // thread never emits 'exit'): wait one chunk so every phase window is on disk.
  await sleep(CPU_PROFILE_CHUNK_MS + 500);
  const profiled = profiledThreads(profDir);
  for (const phase of phases) {
    phase.profiles = profiled.map((thread) => ({
      label: threadLabel(thread, stackPid),
      summary: summariseCpuProfiles(thread.files, phase.window),
    }));
    phase.profilesWithDrain = profiled.map((thread) => ({
      label: threadLabel(thread, stackPid),
      summary: summariseCpuProfiles(thread.files, { from: phase.window.from, to: phase.drainedAt }),
    }));
  }
}
