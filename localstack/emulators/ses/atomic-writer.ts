/**
 * Serialized, coalescing, atomic file writer (temporary file + rename).
 *
 * Writes to one file run one at a time, in call order; a write queued while another runs for the
 * same file is replaced by a newer one (only the latest content matters). `write()` resolves once
 * the given content, or newer content for the same file, is renamed into place, so a caller that
 * must not answer before its data is on disk awaits it; callers that can afford to lose a write
 * (it will be redone) ignore the promise. Failures are logged here and also reject the promise.
 *
 * No fsync: the emulator's durability target is a killed process (SIGKILL), which the page cache
 * survives; a power loss is out of scope.
 */
import { promises as fsp } from 'node:fs';

interface Queued {
  content: string | Buffer;
  waiters: { resolve: () => void; reject: (err: Error) => void }[];
}

export class AtomicWriter {
  private readonly queued = new Map<string, Queued>();
  private readonly running = new Map<string, Promise<void>>();
  private counter = 0;

  constructor(private readonly log: (msg: string) => void) {}

  write(file: string, content: string | Buffer): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const prev = this.queued.get(file);
      // Content still waiting is superseded: its waiters are satisfied by the newer write.
      const waiters = prev ? prev.waiters : [];
      waiters.push({ resolve, reject });
      this.queued.set(file, { content, waiters });
      if (!this.running.has(file)) {
        const run = this.drain(file).finally(() => this.running.delete(file));
        this.running.set(file, run);
      }
    });
  }

  /** Like write(), for callers that do not wait: the failure is already logged. */
  writeLater(file: string, content: string | Buffer): void {
    this.write(file, content).catch(() => undefined);
  }

  private async drain(file: string): Promise<void> {
    for (;;) {
      const next = this.queued.get(file);
      if (next === undefined) return;
      this.queued.delete(file);
      const tmp = `${file}.tmp-${process.pid}-${++this.counter}`;
      try {
        await fsp.writeFile(tmp, next.content);
        await fsp.rename(tmp, file);
        for (const w of next.waiters) w.resolve();
      } catch (err) {
        const e = err instanceof Error ? err : new Error(String(err));
        this.log(`could not write ${file}: ${e.message}`);
        await fsp.rm(tmp, { force: true }).catch(() => undefined);
        for (const w of next.waiters) w.reject(e);
      }
    }
  }

  /** Waits until every write queued so far has finished (written or failed). */
  async flush(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  /** Waits until the writes queued so far for these files have finished. */
  async flushFiles(files: readonly string[]): Promise<void> {
    for (;;) {
      const runs = files.map((f) => this.running.get(f)).filter((r): r is Promise<void> => r !== undefined);
      if (runs.length === 0) return;
      await Promise.allSettled(runs);
    }
  }
}
