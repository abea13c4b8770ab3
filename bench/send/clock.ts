/** Waiting, and the clock of the CPU profiles (CLOCK_MONOTONIC, as V8 stamps its samples). */
export const sleep = (msec: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, msec));

/** CLOCK_MONOTONIC microseconds (process.hrtime). */
export const hrtimeMicros = () => Number(process.hrtime.bigint() / 1000n);
