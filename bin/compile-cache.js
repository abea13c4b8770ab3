/**
 * V8's code cache for the repository's programs run from their bundles (./run-bundled.js: the CLIs, and the
 * local cloud's three programs through the loaders it writes): what V8 compiled of a module on one run is kept
 * on disk and reused by the next, instead of parsing and compiling the same files again at every start (the
 * installed packages the bundles require from node_modules, the AWS SDK's above all).
 *
 * Node 22.1 and later do this themselves (`module.enableCompileCache`), used when present. On Node 20 this
 * file does it for CommonJS modules: `Module.prototype._compile` compiles the module's wrapper with
 * `vm.Script` and the cached data of an earlier run, and runs it as Node's own `_compile` does (the same
 * `require`, `module`, `exports`, `__filename`, `__dirname` and `this`). Left to Node's own compile:
 * - a module whose source may call `import()`: Node 20 loses the dynamic import callback of code compiled from
 *   a cache ("A dynamic import callback was not specified", even with
 *   `vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`), so the local cloud's own bundles, which import fauxqs and
 *   other ES modules, are compiled as before;
 * - a module with a source map while source maps are on (Node reads the map in its own `_compile`: a bundle's
 *   errors name the TypeScript sources; the packages the local cloud loads ship none), and a script that
 *   starts with `#!` (only the start of a source may have one; the wrapper would not).
 * A cache V8 rejects (another Node, other flags) is compiled anew and written again. An entry is named by a hash
 * of the module's path and content, so a changed file never meets an old entry; it is written once the program
 * has run a few seconds, or at its exit if sooner, so it holds the functions its start compiled (V8's cache of a
 * script that ran includes the functions compiled lazily since); written to a temporary file and renamed, so
 * programs starting together never read half an entry. A build of a bundle empties the folder only once it has
 * grown past MAX_CACHE_BYTES (pruneCompileCache): the installed packages' entries serve the new bundle too.
 *
 * Measured on the development machine (2026-11-29): a stack of the suite's (`spawnStack`, sharing its DynamoDB
 * Local) took 1.35-1.49 s of CPU to be ready instead of 1.59-1.66 s; `npm run admin -- account create` 0.21-0.23 s
 * instead of 0.23-0.27 s; the MCP server 207 ms to its `initialize` answer instead of 247. MAILSERVICE_COMPILE_CACHE=0 turns it off.
 */
const Module = require('node:module');
const { createHash } = require('node:crypto');
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

/** Where the entries of this Node (its version and architecture: V8 refuses another's) are kept, under `root`. */
function cacheFolder(root) {
  return join(root, `v8-${process.version}-${process.arch}`);
}

/** How many modules came from the cache, were compiled and cached, or were left to Node (for the tests and benches). */
const counts = { fromCache: 0, compiled: 0, rejected: 0, leftToNode: 0 };

const DYNAMIC_IMPORT = /\bimport\s*\(/;
const SOURCE_MAP = /\/\/# sourceMappingURL=/;

/** The `require` Node gives a module (lib/internal/modules/helpers.js `makeRequireFunction`). */
function requireFor(module) {
  const require = (request) => module.require(request);
  const resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  resolve.paths = (request) => Module._resolveLookupPaths(request, module);
  require.resolve = resolve;
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

function installNode20Cache(folder) {
  mkdirSync(folder, { recursive: true });
  const unwritten = new Map();
  const write = () => {
    for (const [file, script] of unwritten) {
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, file);
      } catch {
        rmSync(temporary, { force: true });
      }
    }
    unwritten.clear();
  };
  const ownCompile = Module.prototype._compile;
  Module.prototype._compile = function compileWithCache(content, filename, ...rest) {
    const mapped = process.sourceMapsEnabled && SOURCE_MAP.test(content);
    if (content.startsWith('#!') || DYNAMIC_IMPORT.test(content) || mapped) {
      counts.leftToNode++;
      return ownCompile.call(this, content, filename, ...rest);
    }
    const file = join(folder, createHash('sha1').update(filename).update('\0').update(content).digest('hex'));
    let cachedData;
    try {
      cachedData = readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    if (cachedData && !script.cachedDataRejected) counts.fromCache++;
    else {
      if (cachedData) counts.rejected++;
      counts.compiled++;
      unwritten.set(file, script);
    }
    const wrapper = script.runInThisContext({ displayErrors: true });
    return Reflect.apply(wrapper, this.exports, [this.exports, requireFor(this), this, filename, dirname(filename)]);
  };
  setTimeout(write, 3000).unref();
  process.once('exit', write);
}

let enabled = false;

/**
 * Turns the cache on for this thread (each thread has its own modules; a no-op the second time), in
 * `root`/v8-<node>-<arch>/. Returns how: 'node' (Node's own), 'node20' (this file's), or 'off'.
 */
function enableCompileCache(root) {
  if (process.env.MAILSERVICE_COMPILE_CACHE === '0') return 'off';
  if (typeof Module.enableCompileCache === 'function') {
    // Node's own reports a folder it cannot use in its result instead of throwing.
    Module.enableCompileCache(cacheFolder(root));
    return 'node';
  }
  if (!enabled) {
    try {
      installNode20Cache(cacheFolder(root));
    } catch {
      // A folder this user cannot write (a shared install): the program runs as it would without the cache.
      return 'off';
    }
  }
  enabled = true;
  return 'node20';
}

/**
 * Removes every entry under `root`, of every Node (the bundles were built again: their old entries would never be
 * read). Never throws: other programs may be writing entries meanwhile (a stack's threads, CLIs run at once), and
 * removing a folder another process writes into fails with ENOTEMPTY. So each folder is first renamed away (one
 * atomic step: a writer's next entry then fails, which it ignores, and the next program starts a new folder),
 * then removed; a folder that still cannot be removed is left to the next build.
 */
function clearCompileCache(root) {
  for (const name of readdirSafe(root)) {
    if (!name.startsWith('v8-')) continue;
    try {
      renameSync(join(root, name), join(root, `removed-${name}-${process.pid}-${Date.now()}`));
    } catch {
      // Renamed or removed by another build at the same time.
    }
  }
  for (const name of readdirSafe(root)) {
    if (!name.startsWith('removed-v8-')) continue;
    try {
      rmSync(join(root, name), { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Still written into by a program that opened it before the rename: the next build removes it.
    }
  }
}

/** How large the entries may grow before a build empties them (every Node's together): MAX_CACHE_BYTES. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Called when a bundle is built again: its old entries will never be read (an entry is named by its module's
 * content), but the installed packages' entries, most of the cache, still serve the new bundle. So the entries
 * are kept until they weigh more than `maxBytes` (about 5 MB for all the repository's programs), then all
 * removed (clearCompileCache). Never throws.
 */
function pruneCompileCache(root, maxBytes = MAX_CACHE_BYTES) {
  let bytes = 0;
  for (const name of readdirSafe(root)) {
    if (!name.startsWith('v8-')) continue;
    for (const entry of readdirSafe(join(root, name))) {
      try {
        bytes += statSync(join(root, name, entry)).size;
      } catch {
        // Renamed or removed meanwhile.
      }
    }
  }
  if (bytes > maxBytes) clearCompileCache(root);
  return bytes;
}

function readdirSafe(root) {
  try {
    return readdirSync(root);
  } catch {
    return [];
  }
}

module.exports = { enableCompileCache, clearCompileCache, pruneCompileCache, MAX_CACHE_BYTES, compileCacheCounts: () => ({ ...counts }) };
