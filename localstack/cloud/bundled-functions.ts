/**
 * How a function's module is loaded. From the sources (`node --import tsx localstack/start.ts`) a plain
 * `require` of its entry, which tsx compiles. In the local cloud's bundles (localstack/launch.cjs, `npm
 * start`), this file is replaced by a table of every function's entry, each bundled and evaluated on its
 * first load only (so a function's cold start still runs inside its own environment); an entry the table
 * lacks (a function added since the build, a test's own) is compiled from its source by tsx.
 */

/** The function's module from the bundle's table; undefined when the table has none (always, from the sources). */
export function bundledFunctionModule(_entry: string): Record<string, unknown> | undefined {
  return undefined;
}

/** Requires a TypeScript source by path: tsx compiles it (registered here first when the program is a bundle). */
export function requireSource(file: string): Record<string, unknown> {
  return require(file) as Record<string, unknown>;
}
