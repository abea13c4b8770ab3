/**
 * Progress of long commands (suppressions import, imports start) on stderr: a cli-progress bar redrawn in
 * place on a terminal; elsewhere (a pipe, a CI log, a test) one plain line per step, so logs stay readable
 * and what each step reported is kept.
 */
import { Presets, SingleBar } from 'cli-progress';
import type { CliIo } from './io';

export interface Progress {
  /** Sets how far along it is; `total` may change as the work discovers more; `note` says what the step reported. */
  update(value: number, total: number, note: string): void;
  stop(): void;
}

export function startProgress(io: CliIo, label: string, unit: string): Progress {
  const stream = io.progressStream;
  if (stream.isTTY) {
    const bar = new SingleBar(
      { format: `${label} |{bar}| {value}/{total} ${unit} {note}`, stream, hideCursor: true, clearOnComplete: false, etaBuffer: 5 },
      Presets.shades_classic,
    );
    let started = false;
    return {
      update(value, total, note) {
        if (!started) {
          bar.start(Math.max(total, 1), value, { note });
          started = true;
        } else {
          bar.setTotal(Math.max(total, 1));
          bar.update(value, { note });
        }
      },
      stop: () => started && bar.stop(),
    };
  }
  return {
    update(value, total, note) {
      const percent = total > 0 ? Math.floor((value / total) * 100) : 0;
      stream.write(`${label}: ${value}/${total} ${unit} (${percent}%)${note ? ` ${note}` : ''}\n`);
    },
    stop: () => undefined,
  };
}
