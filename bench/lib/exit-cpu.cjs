/**
 * Preloaded (`node --require`) by bench/cli.ts into each program it starts: at exit, the process's own CPU
 * (user + system since it started, Node's start included) written as JSON to BENCH_EXIT_CPU_FILE. A program
 * stopped by a signal writes it too (SIGTERM is turned into an exit).
 */
const { writeFileSync } = require('node:fs');

const file = process.env.BENCH_EXIT_CPU_FILE;
if (file) {
  const write = () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ cpuMs: (user + system) / 1000 }));
  };
  process.once('exit', write);
  process.once('SIGTERM', () => process.exit(0));
}
