/**
 * Bundles every Lambda of infra/definitions.ts (API groups and workers) with esbuild:
 * one self-contained CommonJS bundle per function at `<outDir>/<name>/index.js` (+ source map).
 *
 * Everything is bundled, @aws-sdk included, so behaviour never depends on the SDK version of the
 * Lambda runtime. `npm run build` runs this file; `buildFunctions()` is the programmatic entry.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_FILE, DEFAULT_FUNCTIONS_DIR, PROJECT_ROOT, RELAY_DOCKERFILE, functionCodeDir, functionEntries, type FunctionEntry } from './functions';
import { SMTP_RELAY } from './definitions';

export interface BuildOptions {
  /** Output directory; each function goes to `<outDir>/<name>/index.js`. Default dist/functions. */
  outDir?: string;
  /** Functions to bundle; default every API group and worker of the definitions. */
  entries?: Pick<FunctionEntry, 'name' | 'entry'>[];
  /** Directory the entries are relative to; default the project root. */
  rootDir?: string;
  /** Minify the bundles (identifiers keep their names; source maps map back). Default true. */
  minify?: boolean;
}

export interface BuiltFunction {
  name: string;
  entry: string;
  /** Absolute path of the bundle. */
  file: string;
  bytes: number;
  sourceMapBytes: number;
}

/** Thrown (before anything is built) when entry files are missing. */
export class MissingEntryError extends Error {
  constructor(readonly missing: { name: string; entry: string }[]) {
    super(
      `Cannot build the Lambda bundles: missing entry file${missing.length > 1 ? 's' : ''}:\n` +
        missing.map((m) => `  - ${m.entry} (function "${m.name}")`).join('\n') +
        '\nEach API group and worker of infra/definitions.ts needs its entry file exporting `handler`.',
    );
    this.name = 'MissingEntryError';
  }
}

export async function buildFunctions(options: BuildOptions = {}): Promise<BuiltFunction[]> {
  const outDir = path.resolve(options.outDir ?? DEFAULT_FUNCTIONS_DIR);
  const rootDir = path.resolve(options.rootDir ?? PROJECT_ROOT);
  const entries = options.entries ?? functionEntries();

  const missing = entries.filter((e) => !fs.existsSync(path.resolve(rootDir, e.entry)));
  if (missing.length > 0) throw new MissingEntryError(missing);

  return Promise.all(
    entries.map(async ({ name, entry }) => {
      const dir = functionCodeDir(outDir, name);
      // A function's directory is its Lambda asset: clear it so no stale file is deployed.
      fs.rmSync(dir, { recursive: true, force: true });
      const file = path.join(dir, BUNDLE_FILE);
      await build({
        entryPoints: [path.resolve(rootDir, entry)],
        outfile: file,
        absWorkingDir: rootDir,
        // Entries outside the project (tests, scratch entries) still resolve the project's packages.
        nodePaths: [path.join(rootDir, 'node_modules')],
        bundle: true,
        platform: 'node',
        target: 'node22',
        format: 'cjs',
        // Prefer ESM builds of dependencies (the AWS SDK v3 ships both): better tree shaking.
        mainFields: ['module', 'main'],
        sourcemap: true,
        sourcesContent: false,
        minify: options.minify ?? true,
        keepNames: true,
        legalComments: 'none',
        logLevel: 'warning',
      });
      return {
        name,
        entry,
        file,
        bytes: fs.statSync(file).size,
        sourceMapBytes: fs.statSync(`${file}.map`).size,
      };
    }),
  );
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * The SMTP relay's container build context: its bundle (bundled like a function) and the Dockerfile
 * (infra/smtp-relay.Dockerfile) at `<outDir>/smtp-relay/`, the directory CDK stages as the image asset.
 */
export async function buildSmtpRelay(options: Pick<BuildOptions, 'outDir' | 'minify'> = {}): Promise<BuiltFunction> {
  const outDir = path.resolve(options.outDir ?? DEFAULT_FUNCTIONS_DIR);
  const [built] = await buildFunctions({ ...options, entries: [{ name: SMTP_RELAY.name, entry: SMTP_RELAY.entry }] });
  fs.copyFileSync(path.join(PROJECT_ROOT, RELAY_DOCKERFILE), path.join(functionCodeDir(outDir, SMTP_RELAY.name), 'Dockerfile'));
  return built!;
}

async function main(): Promise<void> {
  const started = Date.now();
  const built = [...(await buildFunctions()), await buildSmtpRelay()];
  const width = Math.max(...built.map((b) => b.name.length));
  for (const b of built) {
    console.log(`${b.name.padEnd(width)}  ${kib(b.bytes).padStart(10)}  (map ${kib(b.sourceMapBytes)})  ${path.relative(PROJECT_ROOT, b.file)}`);
  }
  console.log(`Built ${built.length} function bundles in ${Date.now() - started} ms`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    // esbuild has already printed its diagnostics; the message is enough.
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
