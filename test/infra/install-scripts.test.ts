/**
 * The dependencies' install scripts (docs/reference/dependencies.md, "Install scripts"): npm 11 runs a
 * dependency's preinstall, install or postinstall only when package.json's `allowScripts` allows it, and warns
 * at every install about each one not decided. Each installed package with such a script has a decision there,
 * and none is allowed: the suite runs with all of them skipped (esbuild and @swc/core take their native binaries
 * from their platform packages, @parcel/watcher builds only when asked to build from source).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

/** The name of every package under node_modules (scoped ones and nested node_modules included) that has an install script, its own or npm's implicit one. */
function packagesWithInstallScripts(dir: string, found = new Set<string>()): Set<string> {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@')) {
      packagesWithInstallScripts(join(dir, entry.name), found);
      continue;
    }
    const home = join(dir, entry.name);
    const manifest = join(home, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; scripts?: Record<string, string> };
      // A package with a binding.gyp and no install script of its own gets npm's implicit `node-gyp rebuild`.
      const implicitBuild = existsSync(join(home, 'binding.gyp'));
      if (pkg.name && (implicitBuild || INSTALL_SCRIPTS.some((script) => pkg.scripts?.[script]))) found.add(pkg.name);
    }
    packagesWithInstallScripts(join(home, 'node_modules'), found);
  }
  return found;
}

test('every installed dependency with an install script has a decision in allowScripts, and none is allowed', () => {
  const allowScripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> })
    .allowScripts;
  const installed = [...packagesWithInstallScripts(join(ROOT, 'node_modules'))].sort();
  // A decision for a package no longer installed, or an installed one without a decision, fails here.
  expect(Object.keys(allowScripts ?? {}).sort()).toEqual(installed);
  expect(Object.values(allowScripts ?? {})).toEqual(installed.map(() => false));
});
