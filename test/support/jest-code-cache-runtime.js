/**
 * Jest's runtime with V8's code cache across the test files of a run's workers, and across runs.
 *
 * Jest compiles every module again for every test file (each file has a VM context and a module
 * registry of its own), so a worker running 150 files parsed the AWS SDK, zod and the service's modules
 * 150 times: `vm.compileFunction` was the largest single cost of the test workers in a profile of the whole
 * suite. Here the first compilation of a module (same file, same transformed source) produces V8's code
 * cache and the later ones consume it: the module still runs afresh in each file's context, exactly as
 * before (a code cache is context-independent; only parsing and compiling are skipped). A cache V8
 * rejects (another V8 version or flags), and a module that may call `import()` (below), are compiled the
 * ordinary way.
 *
 * jest.config.js names it as each project's `runtime`.
 */
const { compileFunction } = require('node:vm');
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const JestRuntime = require('jest-runtime').default;

/** transformed source's key -> V8's code cache, for every module this worker compiled or read. */
const codeCache = new Map();

/**
 * The entries on disk too, shared by the run's workers (a worker replaced for its memory, jest.config.js, and
 * its siblings read what another compiled) and by the next run: one file per key, written whole then renamed
 * into place, so a reader sees a whole entry or none. A V8 of another version or flags writes its own folder;
 * jest.config.js bounds the folder's size (bin/compile-cache.js's pruneCompileCache).
 */
// JEST_CODE_CACHE_DIR: another folder (test/unit/test-support/worker-leaks.test.ts runs Jest with one of its own).
const CACHE_ROOT = process.env.JEST_CODE_CACHE_DIR || join(__dirname, '..', '..', 'node_modules', '.cache', 'jest-code-cache');
const CACHE_DIR = join(
  CACHE_ROOT,
  `v8-${process.versions.v8}-${process.arch}-${createHash('sha1')
    .update(process.execArgv.join(' ') + (process.env.NODE_OPTIONS ?? ''))
    .digest('hex')
    .slice(0, 8)}`,
);
try {
  mkdirSync(CACHE_DIR, { recursive: true });
} catch {
  // a read-only checkout: the in-memory cache still serves this worker
}
const fileOf = (key) => join(CACHE_DIR, createHash('sha1').update(key).digest('hex'));

function cached(key) {
  let data = codeCache.get(key);
  if (data === undefined) {
    try {
      data = readFileSync(fileOf(key));
      codeCache.set(key, data);
    } catch {
      // not compiled yet by any worker
    }
  }
  return data;
}

function keep(key, data) {
  codeCache.set(key, data);
  const file = fileOf(key);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch {
    // a read-only or full disk: the in-memory entry still serves this worker
  }
}

function forget(key) {
  codeCache.delete(key);
  try {
    unlinkSync(fileOf(key));
  } catch {
    // removed by another worker
  }
}

/**
 * Node 20 loses a function's `import()` callback when V8 compiles it from a code cache ("A dynamic import
 * callback was not specified", seen with a preload doing the same for Node's own loader): a module whose
 * transformed source may still call `import()` (an untransformed package) is left to Jest's compile.
 */
const DYNAMIC_IMPORT = /\bimport\s*\(/;

const keyOf = (filename, source) => `${filename}\0${createHash('sha1').update(source).digest('base64')}`;

class CodeCacheRuntime extends JestRuntime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    const compile = executor.compile.bind(executor);
    executor.compile = (scriptSource, filename) => {
      const context = executor.environment.getVmContext();
      if (context == null || executor.resolution.isCoreModule(filename) || DYNAMIC_IMPORT.test(scriptSource))
        return compile(scriptSource, filename);
      const key = keyOf(filename, scriptSource);
      const cachedData = cached(key);
      let compiled;
      try {
        compiled = compileFunction(scriptSource, executor.injectedModuleParameters, {
          filename,
          parsingContext: context,
          ...(cachedData ? { cachedData } : { produceCachedData: true }),
        });
      } catch {
        // Jest's own compile reports the error as it does (a syntax error, ESM in a CommonJS file).
        return compile(scriptSource, filename);
      }
      if (cachedData && compiled.cachedDataRejected) forget(key);
      // A copy made here: V8's buffer belongs to the file's context (its realm), and keeping it would keep that
      // whole context, every module the file loaded, for the rest of the worker's life.
      else if (!cachedData && compiled.cachedData) keep(key, Buffer.from(compiled.cachedData));
      return compiled;
    };
  }
}

module.exports = CodeCacheRuntime;
