/**
 * The CloudFormation template the local cloud deploys: the CDK app synthesized by ./synth-entry.ts (a
 * child process, stub function code), cached by a hash of everything the synthesis reads, so a warm
 * `npm start` reads a file instead of loading aws-cdk-lib.
 *
 * The hash covers: every project file the app imports (found by esbuild's metafile over synth-entry.ts
 * with packages left external: infra/, and the shared/ files the definitions import), cdk.json (feature
 * flags), the installed aws-cdk-lib and constructs versions, and the context given. Any edit of a
 * construct, a definition or a setting synthesizes again (about 2-5 s); nothing else does.
 * Cache: node_modules/.cache/mailservice-template/<hash>.json, written atomically (several stacks may
 * start at once, e.g. test workers).
 */
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import type { CfnTemplate } from './cfn-types';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');
const ENTRY = path.join(__dirname, 'synth-entry.ts');
export const TEMPLATE_CACHE_DIR = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'mailservice-template');

export interface SynthesizedTemplate {
  template: CfnTemplate;
  /** The cached template file. */
  file: string;
  /** Hash of the synthesis inputs (the cache key); its first 12 characters name the template in logs. */
  hash: string;
  /** True when read from the cache. */
  cached: boolean;
  ms: number;
}

function packageVersion(name: string): string {
  const file = path.join(PROJECT_ROOT, 'node_modules', name, 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The project files the CDK app reads (esbuild follows its imports; packages stay external): part of the cache key. */
export async function appInputs(): Promise<string[]> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'cjs',
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: PROJECT_ROOT,
  });
  return Object.keys(result.metafile.inputs).sort();
}

export async function templateHash(context: Record<string, unknown>): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await appInputs()) {
    hash.update(`file ${file}\n`);
    hash.update(fs.readFileSync(path.join(PROJECT_ROOT, file)));
  }
  hash.update(fs.readFileSync(path.join(PROJECT_ROOT, 'cdk.json')));
  hash.update(`aws-cdk-lib ${packageVersion('aws-cdk-lib')} constructs ${packageVersion('constructs')}\n`);
  hash.update(`context ${JSON.stringify(context, Object.keys(context).sort())}\n`);
  return hash.digest('hex');
}

function runSynth(outFile: string, context: Record<string, unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), ENTRY, outFile, JSON.stringify(context)],
      {
        cwd: PROJECT_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`synthesizing the CDK app failed (exit ${code}):\n${output.trim()}`)),
    );
  });
}

/**
 * A template synthesized elsewhere (LOCAL_TEMPLATE_FILE: `cdk.out/Mailservice.template.json` after `npm run
 * synth`, or a test's edited copy), deployed as it is: its hash is the file's.
 */
export function templateFromFile(file: string): SynthesizedTemplate {
  const started = Date.now();
  const text = fs.readFileSync(file, 'utf8');
  return {
    template: JSON.parse(text) as CfnTemplate,
    file,
    hash: createHash('sha256').update(text).digest('hex'),
    cached: true,
    ms: Date.now() - started,
  };
}

/** The template for this context: from the cache when its inputs are unchanged, else synthesized now. */
export async function synthesizedTemplate(context: Record<string, unknown> = {}): Promise<SynthesizedTemplate> {
  const started = Date.now();
  const hash = await templateHash(context);
  const file = path.join(TEMPLATE_CACHE_DIR, `${hash}.json`);
  let cached = true;
  if (!fs.existsSync(file)) {
    cached = false;
    fs.mkdirSync(TEMPLATE_CACHE_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      await runSynth(partial, context);
      fs.renameSync(partial, file);
    } finally {
      fs.rmSync(partial, { force: true });
    }
  }
  const template = JSON.parse(fs.readFileSync(file, 'utf8')) as CfnTemplate;
  return { template, file, hash, cached, ms: Date.now() - started };
}
