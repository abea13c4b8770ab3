/**
 * What a command reads and writes besides the API: its output streams, the environment and the home
 * folder. Passed in rather than taken from `process`, so the unit tests run the whole program in-process
 * and see exactly what a terminal would.
 */
export interface CliIo {
  /** Writes to standard output (text as given: add your own newline). */
  out(text: string): void;
  /** Writes to standard error. */
  err(text: string): void;
  /** The environment (MAILSERVICE_API_KEY, MAILSERVICE_BASE_URL, MAILSERVICE_CONFIG, HOME). */
  env: NodeJS.ProcessEnv;
  /** Where progress bars go: a terminal gets a redrawn bar, anything else one line per step. */
  progressStream: NodeJS.WritableStream & { isTTY?: boolean };
  /** For tests: a fetch of their own (passed to the API client). */
  fetch?: typeof fetch;
  /** Sleeps between polls and retries (tests make it instant). */
  sleep(ms: number): Promise<void>;
  /** Registers a stop request (Ctrl-C); answers a function that unregisters it. */
  onInterrupt(handler: () => void): () => void;
}

/**
 * A reader that stopped reading (`mailservice ... | head -1`) closes the pipe: the next write fails with
 * EPIPE, which is the end of the output, not an error (as `ls | head -1` ends quietly).
 */
export function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream, exit: (code: number) => void = (code) => process.exit(code)): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') exit(0);
    else throw error;
  });
}

export function processIo(): CliIo {
  endQuietlyOnClosedPipe(process.stdout);
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    env: process.env,
    progressStream: process.stderr,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    onInterrupt(handler) {
      process.once('SIGINT', handler);
      return () => process.removeListener('SIGINT', handler);
    },
  };
}

/** A following command's stop switch: Ctrl-C sets `stopped` and cuts the current pause short; `off()` when done. */
export interface StopSwitch {
  readonly stopped: boolean;
  /** Waits `ms`, or less if Ctrl-C comes first. */
  pause(ms: number): Promise<void>;
  off(): void;
}

export function stopOnInterrupt(io: CliIo): StopSwitch {
  let stopped = false;
  let wake: (() => void) | undefined;
  const off = io.onInterrupt(() => {
    stopped = true;
    wake?.();
  });
  return {
    get stopped() {
      return stopped;
    },
    pause: (ms) => Promise.race([io.sleep(ms), new Promise<void>((resolve) => (wake = resolve))]),
    off,
  };
}
