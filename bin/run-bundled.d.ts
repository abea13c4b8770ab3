/** The types of ./run-bundled.js (plain CommonJS, run by `node` before any TypeScript loader): one copy for every importer. */
declare function runBundled(name: string, entry?: string): void;
declare namespace runBundled {
  /** The bundles `name`-<out>.cjs of `entries` ({ out: path under the repository }), built first when stale; their files by `out`. */
  function bundles(
    name: string,
    entries: Record<string, string>,
    options?: { plugins?: unknown[]; sourcemap?: boolean },
  ): Promise<Record<string, string>>;
  /** The programs run from a bundle of their own, by bundle name: their entries under the repository. */
  const PROGRAMS: Record<string, string>;
  /** The repository's root. */
  const ROOT: string;
  /** The folder of the bundles, their manifests and V8's code cache (node_modules/.cache/mailservice-commands). */
  const CACHE: string;
}
export = runBundled;
