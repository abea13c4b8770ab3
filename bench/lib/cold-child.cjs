/**
 * One cold start, in a fresh `node` process (bench/cold.ts spawns one per run): requires the bundle given
 * as argv[2] and prints, as JSON on stdout, how long the process took to boot, to load the bundle's modules
 * (up to the entry's own code: the bundle was built with an entry prologue calling globalThis.__coldMark)
 * and to run the composition root (the entry's own code: config, clients, repositories, the app), wall
 * and CPU time (user + system), and the memory the process then holds.
 */
'use strict';
const boot = performance.now();
const cpuMs = (usage) => (usage.user + usage.system) / 1000;
let mark;
globalThis.__coldMark = () => {
  mark = { wall: performance.now(), cpu: process.cpuUsage() };
};
const wall0 = performance.now();
const cpu0 = process.cpuUsage();
const mod = require(process.argv[2]);
const wall1 = performance.now();
const cpu1 = process.cpuUsage();
if (typeof mod.handler !== 'function') throw new Error(`${process.argv[2]} exports no handler`);
const at = mark ?? { wall: wall1, cpu: cpu1 };
const memory = process.memoryUsage();
process.stdout.write(
  JSON.stringify({
    bootMs: boot,
    loadMs: at.wall - wall0,
    loadCpuMs: cpuMs(at.cpu) - cpuMs(cpu0),
    rootMs: wall1 - at.wall,
    rootCpuMs: cpuMs(cpu1) - cpuMs(at.cpu),
    heapMiB: memory.heapUsed / 1048576,
    rssMiB: memory.rss / 1048576,
  }),
);
