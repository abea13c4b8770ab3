/**
 * Runs one of the repository's commands from a CommonJS bundle of its TypeScript sources, built by esbuild on
 * first use and again whenever a source it was built from changes (size or modification time): what tsx did on
 * every run (load its loader, resolve and transform each of about 200 files, from its cache or not) is done once.
 * `mailservice --help` took 0.24 s of CPU through tsx and 0.5-1 s beside a test run; from the bundle about 0.1 s.
 *
 * The bundle holds only this repository's files (`packages: 'external'`: the installed packages are required
 * from node_modules as they are) and lives in node_modules/.cache/mailservice-commands/, with a manifest of
 * the inputs it was built from. Several commands started at once may each build it: each writes its own
 * temporary files and renames them into place, so a reader sees one whole bundle or the previous one.
 */
'use strict';
const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');

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

function upToDate(manifestFile, bundleFile) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    statSync(bundleFile);
  } catch {
    return false;
  }
  if (manifest.node !== process.version) return false;
  return Object.entries(manifest.inputs).every(([path, print]) => fingerprint(path) === print);
}

function build(entry, manifestFile, bundleFile) {
  // esbuild is a development dependency: installed with the repository's packages, as tsx was.
  const esbuild = require('esbuild');
  mkdirSync(CACHE, { recursive: true });
  const temporary = `${bundleFile}.${process.pid}.tmp`;
  const result = esbuild.buildSync({
    entryPoints: [join(ROOT, entry)],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    metafile: true,
    absWorkingDir: ROOT,
    logLevel: 'error',
  });
  const inputs = {};
  for (const path of Object.keys(result.metafile.inputs)) inputs[path] = fingerprint(path);
  inputs[relative(ROOT, __filename)] = fingerprint(relative(ROOT, __filename));
  renameSync(temporary, bundleFile);
  const manifestTemporary = `${manifestFile}.${process.pid}.tmp`;
  writeFileSync(manifestTemporary, JSON.stringify({ entry, node: process.version, inputs }));
  renameSync(manifestTemporary, manifestFile);
}

/** Runs `entry` (a path under the repository) from its bundle `name`.cjs, building the bundle first when it is stale. */
module.exports = function runBundled(name, entry) {
  const bundleFile = join(CACHE, `${name}.cjs`);
  const manifestFile = join(CACHE, `${name}.json`);
  if (!upToDate(manifestFile, bundleFile)) build(entry, manifestFile, bundleFile);
  require(bundleFile);
};
