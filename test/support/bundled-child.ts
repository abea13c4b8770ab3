/**
 * A test's child program (a kill test's emulator script) from a bundle of its sources (bin/run-bundled.js, the
 * CLIs' bundle cache: built on first use and again when a source changes), so each start of the child is one
 * `node <bundle>` instead of `node --import tsx <script>`, which loaded tsx and resolved and transformed the
 * emulator's few hundred files at every start: the SES, Scheduler and fauxqs kill tests start their child
 * 15 times (about 0.8 s of CPU each through tsx).
 */
import { relative, resolve } from 'node:path';
import { bundles } from '../../bin/run-bundled';

const ROOT = resolve(__dirname, '..', '..');

/** The bundle's file for `script` (an absolute path under the repository), built first when stale. */
export async function bundledChild(script: string): Promise<string> {
  const entry = relative(ROOT, script).split('\\').join('/');
  const name = `test-child-${entry.replace(/\.[cm]?ts$/, '').replace(/[^A-Za-z0-9]+/g, '-')}`;
  return (await bundles(name, { main: entry })).main!;
}
