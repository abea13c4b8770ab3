/**
 * How a function's module is loaded. From the sources (`node --import tsx localstack/start.ts`) a plain
 * `require` of its entry, which tsx compiles. In the local cloud's bundles (localstack/launch.cjs, `npm
 * start`), this file is replaced by a table of every function's entry (localstack/bundles.cjs), each bundled
 * and evaluated on its first load only (so a function's cold start still runs inside its own environment);
 * an entry the table lacks (a function added since the build, a test's own) is compiled from its source by tsx.
 */
import { resolve } from 'node:path';

const PROJECT_ROOT = resolve(__dirname, '..', '..', '..');

/** The module of a function's entry: a path relative to the project's root (the template's), or absolute. */
export function loadFunctionModule(entry: string): Record<string, unknown> {
  return require(resolve(PROJECT_ROOT, entry)) as Record<string, unknown>;
}
