/**
 * Runs an emulator script in a child process for kill tests: its own process group (so SIGKILL hits
 * the whole group, as when the local cloud is killed), run from a bundle of its sources
 * (../../../support/bundled-child.ts: one process, no tsx wrapper that could outlive a kill, no TypeScript to
 * transform at each start). The script prints `ready <port>` when serving.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { bundledChild } from '#test/support/bundled-child';

export const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

export interface Child {
  proc: ChildProcess;
  port: number;
  /** Everything the child wrote (stdout and stderr) so far. */
  output(): string;
}

export async function startChild(script: string, env: Record<string, string>, timeoutMs = 15_000): Promise<Child> {
  const proc = spawn(process.execPath, [await bundledChild(script)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(proc);
      reject(new Error(`child did not get ready in ${timeoutMs} ms: ${out}`));
    }, timeoutMs);
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /ready (\d+)/.exec(out);
      if (ready) {
        clearTimeout(timer);
        resolve({ proc, port: Number(ready[1]), output: () => out });
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code ?? signal}) before it was ready: ${out}`));
    });
  });
}

function killGroup(proc: ChildProcess): void {
  try {
    if (proc.pid !== undefined) process.kill(-proc.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function exited(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => proc.once('exit', () => resolve()));
}

/** SIGKILL to the child's whole process group; resolves when it is gone. */
export async function sigkill(child: Child): Promise<void> {
  child.proc.removeAllListeners('exit');
  const gone = exited(child.proc);
  killGroup(child.proc);
  await gone;
}

/** SIGTERM (a clean stop), then SIGKILL if it takes longer than `graceMs`. */
export async function terminate(child: Child, graceMs = 10_000): Promise<void> {
  child.proc.removeAllListeners('exit');
  const gone = exited(child.proc);
  child.proc.kill('SIGTERM');
  const timer = setTimeout(() => killGroup(child.proc), graceMs);
  await gone;
  clearTimeout(timer);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
