/**
 * Runs the repository's TypeScript programs from CommonJS bundles of their sources, built by esbuild on first
 * use and again whenever a source they were built from changes (size or modification time): what tsx did on
 * every run (load its loader, resolve and transform each of hundreds of files, from its cache or not) is done
 * once. `mailservice --help` took 0.24 s of CPU through tsx and 0.5-1 s beside a test run; from the bundle
 * about 0.1 s. The local cloud (localstack/launch.cjs) is built here too, as three bundles of one build.
 *
 * A bundle holds only this repository's files (`packages: 'external'`: the installed packages are required
 * from node_modules as they are) and lives in node_modules/.cache/mailservice-commands/, with a manifest of
 * the inputs it was built from (and the checkout's path and Node's version: a moved checkout or another Node
 * builds again). Several programs started at once may each build it: each writes its own temporary files and
 * renames them into place, the manifest last, so a reader sees whole bundles of one build or the previous ones.
 */

const { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { enableCompileCache, pruneCompileCache } = require('./compile-cache');
const { dirname, join, relative, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'mailservice-commands');

/** The inputs' size and modification time, as the manifest keeps them; undefined when one is gone. */
function fingerprint(path) {
  try {
    const stat = statSync(join(ROOT, path));
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
}

function upToDate(manifestFile, files) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    for (const file of files) statSync(file);
  } catch {
    return false;
  }
  if (manifest.node !== process.version || manifest.root !== ROOT) return false;
  return Object.entries(manifest.inputs).every(([path, print]) => fingerprint(path) === print);
}

/**
 * `__dirname` and `__filename` of each repository source, as the source's own (a bundle's are the bundle's):
 * the local cloud finds its files and the project's root through them. It loads every TypeScript source of
 * the repository (read once here), so it comes after the callers' plugins, which may load a file first.
 */
const ownDirname = {
  name: 'own-dirname',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      if (args.path.includes(`${join('node_modules', '')}`)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      const contents = source
        .replace(/\b__dirname\b/g, JSON.stringify(dirname(args.path)))
        .replace(/\b__filename\b/g, JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

async function build(name, entries, options, manifestFile, files) {
  // esbuild is a development dependency: installed with the repository's packages, as tsx was.
  const esbuild = require('esbuild');
  mkdirSync(CACHE, { recursive: true });
  // Beside the cache, at its depth: a source map's paths to the sources are relative to its folder.
  const temporary = `${CACHE}-${name}-${process.pid}.tmp`;
  // With source maps, each bundle's code goes to <file>.body.cjs and <file> enables source maps before it
  // requires it: Node reads a module's map when it compiles it, so the module itself cannot turn them on.
  const body = (out) => `${name}-${out}${options.sourcemap ? '.body' : ''}`;
  const result = await esbuild.build({
    entryPoints: Object.entries(entries).map(([out, entry]) => ({ in: join(ROOT, entry), out: body(out) })),
    outdir: temporary,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    sourcemap: options.sourcemap ? 'linked' : false,
    // Node reads only the mappings for a stack trace: without the sources' text the map is 2 MB instead of 7, parsed at every start.
    sourcesContent: false,
    metafile: true,
    absWorkingDir: ROOT,
    logLevel: 'error',
    plugins: [...(options.plugins ?? []), ownDirname],
  });
  // esbuild's service process would otherwise live as long as this one (the local cloud: about 250 MB idle).
  await esbuild.stop();
  const inputs = {};
  for (const path of Object.keys(result.metafile.inputs)) if (!path.includes(':')) inputs[path] = fingerprint(path);
  inputs[relative(ROOT, __filename)] = fingerprint(relative(ROOT, __filename));
  for (const out of Object.keys(entries)) {
    const built = join(temporary, `${body(out)}.cjs`);
    if (options.sourcemap) {
      renameSync(`${built}.map`, join(CACHE, `${body(out)}.cjs.map`));
      renameSync(built, join(CACHE, `${body(out)}.cjs`));
      const loader = `${files[out]}.${process.pid}.tmp`;
      const cache = `require(${JSON.stringify(join(__dirname, 'compile-cache.js'))}).enableCompileCache(${JSON.stringify(CACHE)});`;
      writeFileSync(
        loader,
        `'use strict';\n${cache}\nprocess.setSourceMapsEnabled(true);\nrequire(${JSON.stringify(`./${body(out)}.cjs`)});\n`,
      );
      renameSync(loader, files[out]);
    } else {
      renameSync(built, files[out]);
    }
  }
  rmSync(temporary, { recursive: true, force: true });
  pruneCompileCache(CACHE);
  const manifestTemporary = `${manifestFile}.${process.pid}.tmp`;
  writeFileSync(manifestTemporary, JSON.stringify({ entries, node: process.version, root: ROOT, inputs }));
  renameSync(manifestTemporary, manifestFile);
}

/**
 * (A promise of) the bundles `name`-<out>.cjs of `entries` ({ out: path under the repository }), built first when stale;
 * returns their files by `out`. `options`: `plugins` (esbuild's), `sourcemap` (a linked map beside each, and
 * source maps on for the program: its errors name the TypeScript sources).
 */
async function bundles(name, entries, options = {}) {
  const files = Object.fromEntries(Object.keys(entries).map((out) => [out, join(CACHE, `${name}-${out}.cjs`)]));
  const manifestFile = join(CACHE, `${name}.json`);
  if (!upToDate(manifestFile, Object.values(files))) await build(name, entries, options, manifestFile, files);
  return files;
}

/** The programs run from a bundle of their own, by bundle name: their entries under the repository. */
const PROGRAMS = {
  cli: 'clients/cli/main.ts',
  admin: 'localstack/admin-main.ts',
  mcp: 'clients/mcp/stdio.ts',
};

/** Runs program `name` (PROGRAMS) from its bundle, building it first when it is stale. */
function runBundled(name, entry = PROGRAMS[name]) {
  bundles(name, { main: entry }).then(
    (files) => {
      enableCompileCache(CACHE);
      require(files.main);
    },
    (error) => {
      console.error(`could not build ${entry}: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}

module.exports = runBundled;
module.exports.bundles = bundles;
module.exports.PROGRAMS = PROGRAMS;
module.exports.ROOT = ROOT;
module.exports.CACHE = CACHE;
