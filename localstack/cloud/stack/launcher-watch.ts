/**
 * `npm start` runs `npm` -> `sh -c "exec node [flags] localstack/launch.cjs"` (the shell becomes this
 * process). npm passes a SIGTERM or SIGINT it gets on to its child, here; but an npm
 * that is killed (SIGKILL, the OOM killer) passes nothing, and without `exec` the shell in between died of
 * SIGTERM and ignored SIGINT, passing neither on: the stack kept serving. This watch closes that gap: when
 * the stack was started by an npm script, it records the processes between it and that npm (a shell when
 * one is left between, npm itself) and calls `onGone` as soon as one of them exits, or one between has lost its parent.
 *
 * Linux only (it reads /proc); elsewhere, and when not started by npm, it watches nothing. Ctrl-C in a
 * terminal signals the whole process group and needs no watch.
 */
import { readFileSync } from 'node:fs';

interface Launcher {
  pid: number;
  ppid: number;
  /** npm itself: only its exit counts (its own parent may go, e.g. `nohup npm start &` and the terminal closes). */
  npm: boolean;
}

function parentOf(pid: number): number | null {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

function environmentOf(pid: number): Map<string, string> | null {
  try {
    const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
    return new Map(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
  } catch {
    return null;
  }
}

/**
 * The processes from this one's parent up to and including the npm process that runs `script` (the
 * first ancestor whose environment does not carry that npm_lifecycle_script: npm sets it for its child
 * only). Empty when there is no such chain (not Linux, not run by npm, or /proc unreadable).
 */
export function npmLaunchers(script: string | undefined, maxDepth = 8): Launcher[] {
  if (!script || process.platform !== 'linux') return [];
  const chain: Launcher[] = [];
  let pid = process.ppid;
  for (let depth = 0; depth < maxDepth && pid > 1; depth++) {
    const ppid = parentOf(pid);
    const environment = environmentOf(pid);
    if (ppid === null || environment === null) return [];
    const npm = environment.get('npm_lifecycle_script') !== script;
    chain.push({ pid, ppid, npm });
    if (npm) return chain;
    pid = ppid;
  }
  return [];
}

/** Polls the launchers every `intervalMs`; `onGone` is called once, when one has exited (or, npm aside, changed parent). */
export function watchLaunchers(launchers: Launcher[], onGone: (pid: number) => void, intervalMs = 500): () => void {
  if (launchers.length === 0) return () => undefined;
  const timer = setInterval(() => {
    const gone = launchers.find((launcher) => {
      const ppid = parentOf(launcher.pid);
      return ppid === null || (!launcher.npm && ppid !== launcher.ppid);
    });
    if (!gone) return;
    clearInterval(timer);
    onGone(gone.pid);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
