/**
 * The order a run starts its files in (test/support/duty-plan.js, used by test/support/jest-sequencer.js): a file
 * that mostly waits starts beside busy ones instead of beside other waiting ones, and long files still start early.
 */
import { join, resolve } from 'node:path';

type File = { key: string; seconds: number; cpuSeconds: number };
const ROOT = resolve(__dirname, '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { planByDuty } = require(join(ROOT, 'test', 'support', 'duty-plan.js')) as {
  planByDuty: (files: File[], options: { slots: number; cores: number; window?: number }) => string[];
};

const waiting = (key: string, seconds: number): File => ({ key, seconds, cpuSeconds: seconds * 0.2 });
const busy = (key: string, seconds: number): File => ({ key, seconds, cpuSeconds: seconds * 0.9 });

test('every file once; files of the same share of a core go longest first', () => {
  const files = [busy('a', 5), busy('b', 50), busy('c', 20), busy('d', 20)];
  expect(planByDuty(files, { slots: 3, cores: 2 })).toEqual(['b', 'c', 'd', 'a']);
});

test('three waiting files do not start together when busy ones are there to run beside them', () => {
  // Longest first would start w1, w2 and w3 together: 0.6 of a core used for a minute.
  const files = [waiting('w1', 60), waiting('w2', 59), waiting('w3', 58), busy('b1', 50), busy('b2', 49), busy('b3', 48)];
  const order = planByDuty(files, { slots: 3, cores: 2 });
  expect(order).toHaveLength(6);
  expect(order.slice(0, 3).filter((key) => key.startsWith('w'))).toHaveLength(1);
  // The busy ones of the first three are the longest busy ones, and the waiting one the longest waiting one.
  expect(order.slice(0, 3).sort()).toEqual(['b1', 'b2', 'w1']);
});

test('a long waiting file among many short busy ones starts among the first, not at the end', () => {
  const files = [waiting('long', 100), ...Array.from({ length: 40 }, (_, i) => busy(`short-${i}`, 5))];
  expect(planByDuty(files, { slots: 3, cores: 2 }).indexOf('long')).toBeLessThan(3);
});

test('the sequencer plans the committed estimates: the kill test and the browser test start among the first 20 files, not one after the other', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Sequencer = require(join(ROOT, 'test', 'support', 'jest-sequencer.js')) as new (
    options: object,
  ) => {
    sort: (tests: object[]) => { path: string }[];
    time: () => undefined;
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const estimates = require(join(ROOT, 'test', 'support', 'test-durations.json')) as { seconds: Record<string, number> };
  const paths = Object.keys(estimates.seconds);
  expect(paths).toEqual(expect.arrayContaining(['test/durability/kill.test.ts', 'test/browser/dashboard.test.ts']));
  const sequencer = new Sequencer({ globalConfig: { maxWorkers: 3 }, contexts: [] });
  sequencer.time = () => undefined; // a fresh clone: no timings of Jest's own
  const tests = paths.map((path) => ({ path: join(ROOT, path), context: { config: { rootDir: ROOT }, hasteFS: { getSize: () => 0 } } }));
  const order = sequencer.sort(tests).map((test) => test.path.slice(ROOT.length + 1));
  expect(new Set(order).size).toBe(paths.length);
  const kill = order.indexOf('test/durability/kill.test.ts');
  const browser = order.indexOf('test/browser/dashboard.test.ts');
  expect(Math.max(kill, browser)).toBeLessThan(20);
  expect(Math.abs(kill - browser)).toBeGreaterThan(1);
});
