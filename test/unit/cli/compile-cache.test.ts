/**
 * V8's code cache for the programs run from their bundles (bin/compile-cache.js): a module compiled on one run
 * is read from the cache on the next and runs as Node runs it; a module that may call `import()` is left to
 * Node (Node 20 loses its dynamic import callback when compiled from a cache); a changed module or a cache V8
 * refuses is compiled anew; MAILSERVICE_COMPILE_CACHE=0 turns it off. Each run is a child `node`, as a
 * program's start is.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const COMPILE_CACHE = resolve(__dirname, '..', '..', '..', 'bin', 'compile-cache.js');
/** Node's own cache (22.1 and later) keeps no counts of ours: the checks of counts are for this file's, on Node 20. */
const NODE_OWN = typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';

let dir = '';
let root = '';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
  root = join(dir, 'cache');
  writeFileSync(
    join(dir, 'a.js'),
    [
      "const b = require('./b');",
      'module.exports = {',
      '  b: b.value,',
      "  dirname: __dirname, filename: __filename, resolved: require.resolve('./b'),",
      '  thisIsExports: this === module.exports, hasCache: require.cache[__filename] === module,',
      '  lazy: (() => [1, 2, 3].map((n) => n * 2).join(","))(),',
      '};',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'b.js'), 'exports.value = "first";\n');
  writeFileSync(join(dir, 'esm-user.js'), "module.exports = () => import('node:path').then((path) => typeof path.join);\n");
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One program's run: enables the cache under `root`, loads the fixture modules, prints what they gave and the counts at exit. */
function run(env: NodeJS.ProcessEnv = {}, cacheRoot = root) {
  const program = `
    const cache = require(${JSON.stringify(COMPILE_CACHE)});
    const mode = cache.enableCompileCache(${JSON.stringify(cacheRoot)});
    const a = require(${JSON.stringify(join(dir, 'a.js'))});
    require(${JSON.stringify(join(dir, 'esm-user.js'))})().then((joinType) => {
      process.on('exit', () => console.log(JSON.stringify({ mode, a, joinType, counts: cache.compileCacheCounts() })));
    });`;
  const out = execFileSync(process.execPath, ['-e', program], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as {
    mode: string;
    a: Record<string, unknown>;
    joinType: string;
    counts: { fromCache: number; compiled: number; rejected: number; leftToNode: number };
  };
}

const entries = () => readdirSync(root).flatMap((folder) => readdirSync(join(root, folder)).map((name) => join(root, folder, name)));

test('a module compiled on one run is read from the cache on the next, and runs as Node runs it', () => {
  const first = run();
  const second = run();
  expect(second.a).toEqual(first.a);
  expect(first.a).toEqual({
    b: 'first',
    dirname: dir,
    filename: join(dir, 'a.js'),
    resolved: join(dir, 'b.js'),
    thisIsExports: true,
    hasCache: true,
    lazy: '2,4,6',
  });
  expect(entries().length).toBeGreaterThanOrEqual(NODE_OWN ? 1 : 2);
  if (NODE_OWN) return expect(first.mode).toBe('node');
  expect(first.mode).toBe('node20');
  expect(first.counts).toMatchObject({ fromCache: 0, compiled: 2 });
  expect(second.counts).toMatchObject({ fromCache: 2, compiled: 0, rejected: 0 });
});

test('a module that may call import() is left to Node, and its import() works on every run', () => {
  const first = run();
  const second = run();
  expect([first.joinType, second.joinType]).toEqual(['function', 'function']);
  if (NODE_OWN) return;
  expect(second.counts.leftToNode).toBe(1);
});

test('a changed module is compiled anew, never read from its old entry; a cache V8 refuses is compiled and replaced', () => {
  run();
  writeFileSync(join(dir, 'b.js'), 'exports.value = "second";\n');
  const changed = run();
  expect(changed.a.b).toBe('second');
  if (NODE_OWN) return;
  expect(changed.counts).toMatchObject({ fromCache: 1, compiled: 1 });
  for (const file of entries()) writeFileSync(file, 'not a code cache');
  const refused = run();
  expect(refused.a.b).toBe('second');
  expect(refused.counts).toMatchObject({ fromCache: 0, rejected: 2, compiled: 2 });
  expect(run().counts).toMatchObject({ fromCache: 2, compiled: 0 });
});

test('a folder it cannot make leaves the program running without it', () => {
  writeFileSync(join(dir, 'not-a-folder'), '');
  const unusable = run({}, join(dir, 'not-a-folder', 'cache'));
  expect(unusable.a.b).toBe('first');
  if (!NODE_OWN) expect(unusable.mode).toBe('off');
});

test('MAILSERVICE_COMPILE_CACHE=0 turns it off; clearCompileCache removes every entry', () => {
  const off = run({ MAILSERVICE_COMPILE_CACHE: '0' });
  expect(off.mode).toBe('off');
  expect(() => readdirSync(root)).toThrow();
  run();
  expect(entries().length).toBeGreaterThan(0);
  require(COMPILE_CACHE).clearCompileCache(root);
  expect(readdirSync(root)).toEqual([]);
});

test('clearCompileCache never throws while another program writes entries into the folder it removes', async () => {
  // A stack's threads and CLIs started together write entries while a build clears the cache: removing a folder
  // another process writes into fails with ENOTEMPTY (the CI run of 2026-11-29 failed a CLI's build so).
  const folder = join(root, `v8-${process.version}-${process.arch}`);
  const writer = [
    "const { mkdirSync, renameSync, writeFileSync } = require('node:fs');",
    `const folder = ${JSON.stringify(folder)};`,
    'const end = Date.now() + 1500;',
    'for (let n = 0; Date.now() < end; n++) {',
    "  try { mkdirSync(folder, { recursive: true }); writeFileSync(folder + '/e.tmp' + n, 'x'); renameSync(folder + '/e.tmp' + n, folder + '/e' + n); } catch {}",
    '}',
  ].join('\n');
  const child = spawn(process.execPath, ['-e', writer], { stdio: 'ignore' });
  const exited = new Promise((done) => child.once('exit', done));
  const { clearCompileCache } = require(COMPILE_CACHE) as { clearCompileCache: (root: string) => void };
  let clears = 0;
  const end = Date.now() + 1000;
  while (Date.now() < end) {
    clearCompileCache(root);
    clears++;
    await new Promise((done) => setImmediate(done));
  }
  await exited;
  expect(clears).toBeGreaterThan(100);
  clearCompileCache(root);
  expect(readdirSync(root)).toEqual([]);
});

test('pruneCompileCache keeps the entries below its bound and removes them all past it', () => {
  run();
  const { pruneCompileCache, MAX_CACHE_BYTES } = require(COMPILE_CACHE) as {
    pruneCompileCache: (root: string, maxBytes?: number) => number;
    MAX_CACHE_BYTES: number;
  };
  const kept = entries();
  expect(kept.length).toBeGreaterThan(0);
  const bytes = pruneCompileCache(root);
  expect(bytes).toBeGreaterThan(0);
  expect(bytes).toBeLessThan(MAX_CACHE_BYTES);
  expect(entries()).toEqual(kept);
  expect(pruneCompileCache(root, bytes - 1)).toBe(bytes);
  expect(readdirSync(root)).toEqual([]);
});
