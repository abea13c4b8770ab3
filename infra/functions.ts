/**
 * Where Lambda code comes from: the list of functions (every API group, worker and stream worker of
 * infra/definitions) and the bundle layout shared by the build script and the CDK stack.
 * No CDK or esbuild imports here, so both sides can use it cheaply.
 */
import * as path from 'node:path';
import { API_GROUPS, MTA_STS_API, SCHEDULED_TASKS, STREAM_WORKERS, WORKERS } from './definitions';

/** Project root (this file lives in <root>/infra). */
export const PROJECT_ROOT = path.resolve(__dirname, '..');

/** Default bundle directory: one `<name>/index.js` per function. */
export const DEFAULT_FUNCTIONS_DIR = path.join(PROJECT_ROOT, 'dist', 'functions');

/** File name of a bundle inside its function directory; the Lambda handler is `index.handler`. */
export const BUNDLE_FILE = 'index.js';
/** The SMTP relay's Dockerfile, copied beside its bundle (`<functionsDir>/smtp-relay/Dockerfile`). */
export const RELAY_DOCKERFILE = 'infra/smtp-relay.Dockerfile';
export const LAMBDA_HANDLER = 'index.handler';

const MIB = 1024 * 1024;

/**
 * The largest a Lambda's bundle (its minified `index.js`) may be: 1 MiB (1,048,576 bytes). What a bundle
 * holds is what a cold start loads, so each function imports only what it uses (shared/services/).
 * `npm run build` (and so `npm run synth` and `npm run deploy`) prints every bundle against its limit
 * (this, or its BUNDLE_SIZE_EXCEPTIONS ceiling) and fails over it; test/infra/bundle-size.test.ts builds
 * them all and checks the same. The SMTP relay is a container (Fargate), not a Lambda: its size is
 * printed, not limited.
 */
export const MAX_BUNDLE_BYTES = MIB;

/**
 * Queue workers allowed over MAX_BUNDLE_BYTES, each held to a ceiling a little above its size today (so
 * growth still fails the build), with the measured figures that let it: only a worker off a user's path,
 * whose cold start no one waits on (test/infra/bundle-size.test.ts checks it is a queue worker and over
 * 1 MiB; docs/reference/parsers.md).
 */
export const BUNDLE_SIZE_EXCEPTIONS: Readonly<Record<string, { maxBytes: number; reason: string }>> = {
  'inbound-email': {
    maxBytes: 3 * MIB,
    reason:
      "mailparser reads mail from strangers (~1.7 MiB with the iconv-lite charset tables and html-to-text), the DMARC reports reader (fast-xml-parser, fflate: ~180 KiB), the send core for forward routes (~52 KiB) and their ARC seal (mailauth's signer: ~360 KiB, loaded on the first forward only); 2,945 KiB, +~50 ms of CPU per cold start (70 ms to load mailparser alone), ~1 ms per message",
  },
};

/** The bundle size limit of a function: MAX_BUNDLE_BYTES unless it is one of BUNDLE_SIZE_EXCEPTIONS. */
export function bundleLimit(name: string): number {
  return BUNDLE_SIZE_EXCEPTIONS[name]?.maxBytes ?? MAX_BUNDLE_BYTES;
}

export interface FunctionEntry {
  /** Function name: directory of its bundle, suffix of its logical id. */
  name: string;
  /** Entry file exporting `handler`, relative to the project root. */
  entry: string;
  kind: 'api' | 'worker' | 'task';
}

/** Every function of the definitions; names must be unique because they share one bundle directory. */
export function functionEntries(): FunctionEntry[] {
  const entries: FunctionEntry[] = [
    ...API_GROUPS.map((g) => ({ name: g.name, entry: g.entry, kind: 'api' as const })),
    { name: MTA_STS_API.name, entry: MTA_STS_API.entry, kind: 'api' as const },
    ...WORKERS.map((w) => ({ name: w.name, entry: w.entry, kind: 'worker' as const })),
    ...STREAM_WORKERS.map((w) => ({ name: w.name, entry: w.entry, kind: 'worker' as const })),
    ...SCHEDULED_TASKS.map((t) => ({ name: t.name, entry: t.entry, kind: 'task' as const })),
  ];
  const seen = new Set<string>();
  for (const { name } of entries) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) {
      throw new Error(`Function name "${name}" must be lower-case letters, digits and dashes (it names a directory and a logical id)`);
    }
    if (seen.has(name))
      throw new Error(`Function name "${name}" is used twice in infra/definitions (API groups and workers share one namespace)`);
    seen.add(name);
  }
  return entries;
}

/** Directory holding one function's bundle. */
export function functionCodeDir(functionsDir: string, name: string): string {
  return path.join(functionsDir, name);
}
