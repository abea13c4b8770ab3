/**
 * Bundles every Lambda of infra/definitions (API groups and workers) with esbuild:
 * one self-contained CommonJS bundle per function at `<outDir>/<name>/index.js` (+ source map).
 *
 * Everything is bundled, @aws-sdk included, so behaviour never depends on the SDK version of the
 * Lambda runtime; except the credential sources a Lambda never uses (LAMBDA_UNUSED_CREDENTIAL_SOURCES).
 * `npm run build` runs this file: it prints each bundle's size against its limit (MAX_BUNDLE_BYTES, 1 MiB,
 * or its BUNDLE_SIZE_EXCEPTIONS ceiling: infra/functions.ts) and fails when one is over; `buildFunctions()`
 * is the programmatic entry.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build, type Plugin } from 'esbuild';
import {
  BUNDLE_FILE,
  BUNDLE_SIZE_EXCEPTIONS,
  DEFAULT_FUNCTIONS_DIR,
  MAX_BUNDLE_BYTES,
  PROJECT_ROOT,
  RELAY_DOCKERFILE,
  bundleLimit,
  functionCodeDir,
  functionEntries,
  type FunctionEntry,
} from './functions';
import { SMTP_RELAY } from './definitions';
import { THIRD_PARTY_LICENSES_FILE, thirdPartyLicenses } from './third-party-licenses';

/**
 * Credential sources a Lambda never reaches. Lambda gives a function its role's credentials in the
 * environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), the first source the SDK's
 * default chain reads (@aws-sdk/credential-provider-node). The chain imports the others (SSO, shared
 * config files, credential_process, web identity tokens, container and instance metadata) only when the
 * environment has none; bundled, they and the STS, SSO and sign-in clients they use weigh ~110 KiB in
 * every function. Each is replaced by a link that passes (CredentialsProviderError, tryNextLink), so
 * without environment credentials the chain ends as it would anywhere, "Could not load credentials from
 * any providers". Only the Lambda bundles built here: the local cloud, scripts and tests run the sources
 * with the full chain (tested: test/infra/bundle-size.test.ts).
 */
export const LAMBDA_UNUSED_CREDENTIAL_SOURCES: readonly string[] = [
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-web-identity',
  '@aws-sdk/credential-provider-http',
  '@smithy/credential-provider-imds',
];

const UNUSED_CREDENTIAL_SOURCE = `
import { CredentialsProviderError } from '@smithy/core/config';
const absent = (source) => () => async () => {
  throw new CredentialsProviderError(source + ' credentials are not part of a Lambda bundle (Lambda provides credentials in the environment; infra/build.ts)', { tryNextLink: true });
};
export const fromSSO = absent('SSO');
export const fromIni = absent('Shared config file');
export const fromProcess = absent('External process');
export const fromTokenFile = absent('Web identity token');
export const fromHttp = absent('Container (HTTP)');
export const fromContainerMetadata = absent('Container metadata');
export const fromInstanceMetadata = absent('Instance metadata');
export const ENV_CMDS_FULL_URI = 'AWS_CONTAINER_CREDENTIALS_FULL_URI';
export const ENV_CMDS_RELATIVE_URI = 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI';
`;

function lambdaCredentialsOnly(rootDir: string): Plugin {
  const filter = new RegExp(`^(${LAMBDA_UNUSED_CREDENTIAL_SOURCES.map((name) => name.replace(/[/.-]/g, '\\$&')).join('|')})$`);
  return {
    name: 'lambda-credentials-only',
    setup(b) {
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'lambda-unused-credentials' }));
      b.onLoad({ filter: /.*/, namespace: 'lambda-unused-credentials' }, () => ({
        contents: UNUSED_CREDENTIAL_SOURCE,
        loader: 'js',
        resolveDir: rootDir,
      }));
    },
  };
}

/**
 * Nodemailer's extension table (its mime-funcs/mime-types.js, 74 KiB) replaced by ours
 * (shared/domain/mime/nodemailer-mime-types.ts): nodemailer consults it only for a part with a file name
 * and no content type, which our composer never builds (shared/domain/mime/compose.ts gives every part
 * its type). It kept the send worker over 1 MiB.
 */
function nodemailerTypesFromOurTable(): Plugin {
  return {
    name: 'nodemailer-types-from-our-table',
    setup(b) {
      b.onResolve({ filter: /mime-types(\.js)?$/ }, (args) => {
        if (!/[\\/]node_modules[\\/]nodemailer[\\/]/.test(args.importer)) return undefined;
        return { path: path.join(PROJECT_ROOT, 'shared', 'domain', 'mime', 'nodemailer-mime-types.ts') };
      });
    },
  };
}

/** Prepends `code` to each entry file's source (imports are hoisted: it runs after them, before the entry's own code). */
function prologue(entryFiles: ReadonlySet<string>, code: string): Plugin {
  return {
    name: 'entry-prologue',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        if (!entryFiles.has(args.path)) return undefined;
        return { contents: `${code}\n${fs.readFileSync(args.path, 'utf8')}`, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

export interface BuildOptions {
  /** Output directory; each function goes to `<outDir>/<name>/index.js`. Default dist/functions. */
  outDir?: string;
  /** Functions to bundle; default every API group and worker of the definitions. */
  entries?: Pick<FunctionEntry, 'name' | 'entry'>[];
  /** Directory the entries are relative to; default the project root. */
  rootDir?: string;
  /** Minify the bundles (identifiers keep their names; source maps map back). Default true. */
  minify?: boolean;
  /**
   * Lambda bundles: leave out the credential sources Lambda never uses (LAMBDA_UNUSED_CREDENTIAL_SOURCES).
   * Default true; false for the SMTP relay, a container whose credentials come from the task role's
   * endpoint (the container provider).
   */
  lambdaCredentials?: boolean;
  /** JavaScript run at the start of each entry module's own code, after its imports (bench/cold.ts marks the end of module loading with it). */
  entryPrologue?: string;
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
        '\nEach API group and worker of infra/definitions needs its entry file exporting `handler`.',
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

  for (const { name } of entries) {
    // A function's directory is its Lambda asset: clear it so no stale file is deployed.
    fs.rmSync(functionCodeDir(outDir, name), { recursive: true, force: true });
  }
  const entryFiles = new Set(entries.map(({ entry }) => path.resolve(rootDir, entry)));
  // One build for every function: esbuild reads and parses each source (the AWS SDK's included) once and
  // links each entry point on its own, so each bundle is what a build of its entry alone makes. One build
  // per function parsed the shared sources 35 times (about 30 s of CPU on 2 cores, against about 8).
  const result = await build({
    entryPoints: entries.map(({ name, entry }) => ({
      in: path.resolve(rootDir, entry),
      out: path.join(name, path.parse(BUNDLE_FILE).name),
    })),
    outdir: outDir,
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
    // Comments stripped; the bundled packages' licence notices go beside it (./third-party-licenses.ts).
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: [
      ...((options.lambdaCredentials ?? true) ? [lambdaCredentialsOnly(rootDir)] : []),
      nodemailerTypesFromOurTable(),
      ...(options.entryPrologue ? [prologue(entryFiles, options.entryPrologue)] : []),
    ],
  });
  return entries.map(({ name, entry }) => {
    const dir = functionCodeDir(outDir, name);
    const file = path.join(dir, BUNDLE_FILE);
    const inputs = result.metafile.outputs[path.relative(rootDir, file).split(path.sep).join('/')]?.inputs;
    if (!inputs) throw new Error(`esbuild made no bundle for ${name} (${entry}) at ${file}`);
    fs.writeFileSync(path.join(dir, THIRD_PARTY_LICENSES_FILE), thirdPartyLicenses(rootDir, Object.keys(inputs)));
    return {
      name,
      entry,
      file,
      bytes: fs.statSync(file).size,
      sourceMapBytes: fs.statSync(`${file}.map`).size,
    };
  });
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Bundles over their limit (bundleLimit: MAX_BUNDLE_BYTES, or the exception's ceiling). */
export function oversizedBundles(
  built: readonly Pick<BuiltFunction, 'name' | 'bytes'>[],
): { name: string; bytes: number; limit: number }[] {
  return built.map((b) => ({ name: b.name, bytes: b.bytes, limit: bundleLimit(b.name) })).filter((b) => b.bytes > b.limit);
}

/** One line per bundle: its size, its share of the limit, and what is wrong or allowed (a container has no limit). */
export function sizeReport(
  built: readonly Pick<BuiltFunction, 'name' | 'bytes' | 'sourceMapBytes' | 'file'>[],
  containers: readonly string[] = [],
): string[] {
  const width = Math.max(...built.map((b) => b.name.length));
  return built.map((b) => {
    const limit = bundleLimit(b.name);
    const exception = BUNDLE_SIZE_EXCEPTIONS[b.name];
    let status: string;
    if (containers.includes(b.name)) status = 'container (no limit)';
    else if (b.bytes > limit) status = `OVER THE LIMIT of ${kib(limit)}`;
    else if (exception && b.bytes > MAX_BUNDLE_BYTES)
      status = `over ${kib(MAX_BUNDLE_BYTES)}: allowed up to ${kib(limit)} (${exception.reason})`;
    else status = `${Math.round((100 * b.bytes) / limit)}% of ${kib(limit)}`;
    return `${b.name.padEnd(width)}  ${kib(b.bytes).padStart(10)}  (map ${kib(b.sourceMapBytes).padStart(10)})  ${path.relative(PROJECT_ROOT, b.file).padEnd(width + 24)}  ${status}`;
  });
}

/**
 * The SMTP relay's container build context: its bundle (bundled like a function) and the Dockerfile
 * (infra/smtp-relay.Dockerfile) at `<outDir>/smtp-relay/`, the directory CDK stages as the image asset.
 */
export async function buildSmtpRelay(options: Pick<BuildOptions, 'outDir' | 'minify'> = {}): Promise<BuiltFunction> {
  const outDir = path.resolve(options.outDir ?? DEFAULT_FUNCTIONS_DIR);
  // A container, not a Lambda: its credentials come from the task role (the full credential chain).
  const [built] = await buildFunctions({
    ...options,
    entries: [{ name: SMTP_RELAY.name, entry: SMTP_RELAY.entry }],
    lambdaCredentials: false,
  });
  fs.copyFileSync(path.join(PROJECT_ROOT, RELAY_DOCKERFILE), path.join(functionCodeDir(outDir, SMTP_RELAY.name), 'Dockerfile'));
  return built!;
}

async function main(): Promise<void> {
  const started = Date.now();
  const functions = await buildFunctions();
  const relay = await buildSmtpRelay();
  for (const line of sizeReport([...functions, relay], [relay.name])) console.log(line);
  console.log(
    `Built ${functions.length + 1} function bundles in ${Date.now() - started} ms (limit ${kib(MAX_BUNDLE_BYTES)} per Lambda, infra/functions.ts)`,
  );
  const over = oversizedBundles(functions);
  if (over.length > 0) {
    throw new Error(
      `Lambda bundle${over.length > 1 ? 's' : ''} over the size limit:\n` +
        over.map((b) => `  - ${b.name}: ${kib(b.bytes)} > ${kib(b.limit)}`).join('\n') +
        '\nImport only what the function uses (shared/services/; docs/reference/local-cloud-and-deploy.md, "Lean bundles").',
    );
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    // esbuild has already printed its diagnostics; the message is enough.
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
