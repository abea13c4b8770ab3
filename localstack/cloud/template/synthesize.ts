/**
 * The CloudFormation template the local cloud deploys: the CDK app synthesized by ./synth-entry.ts (a
 * child process, stub function code), cached by a hash of everything the synthesis reads, so a warm
 * `npm start` reads a file instead of loading aws-cdk-lib.
 *
 * The hash covers: every project file the app imports (found by esbuild's metafile over synth-entry.ts
 * with packages left external: infra/, and the shared/ files the definitions import), cdk.json (feature
 * flags), the installed aws-cdk-lib and constructs versions, and the context given. Any edit of a
 * construct, a definition or a setting synthesizes again (about 2-5 s); nothing else does.
 * The list of those files is remembered (app-inputs.json, with their sizes and modification times) while none
 * of them changes, so a warm start runs no esbuild either.
 * Cache: node_modules/.cache/mailservice-template/<hash>.json, written atomically (several stacks may
 * start at once, e.g. test workers). Stacks started together with the same settings synthesize it once: the
 * first takes a lock file beside it (<hash>.json.lock, its pid inside) and the others wait for the template
 * (three test stacks starting at once synthesized it three times, ~3 s of CPU each).
 */
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build, stop } from 'esbuild';
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

/**
 * Where the last list of the app's inputs is kept, with each input's size and modification time: while none of
 * them changed, the list is the same (an import can only change by editing a file already on it), so a start
 * reads it instead of running esbuild over the app (about 0.45 s of CPU, and an esbuild process, a start).
 */
export const APP_INPUTS_FILE = path.join(TEMPLATE_CACHE_DIR, 'app-inputs.json');

function fingerprint(file: string): string | undefined {
  try {
    const stat = fs.statSync(path.join(PROJECT_ROOT, file));
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** The remembered list when it was made here and none of its files changed since; otherwise null. */
function rememberedInputs(file: string): string[] | null {
  try {
    const known = JSON.parse(fs.readFileSync(file, 'utf8')) as { root: string; entry: string; inputs: Record<string, string> };
    if (known.root !== PROJECT_ROOT || known.entry !== ENTRY) return null;
    const inputs = Object.entries(known.inputs);
    return inputs.length > 0 && inputs.every(([input, print]) => fingerprint(input) === print) ? inputs.map(([input]) => input) : null;
  } catch {
    return null;
  }
}

function remember(file: string, inputs: string[]): void {
  const prints = Object.fromEntries(inputs.map((input) => [input, fingerprint(input)]));
  // Atomically: stacks starting together may each write it.
  const partial = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(partial, JSON.stringify({ root: PROJECT_ROOT, entry: ENTRY, inputs: prints }));
    fs.renameSync(partial, file);
  } catch {
    fs.rmSync(partial, { force: true }); // a read-only checkout: found again next time
  }
}

/**
 * The project files the CDK app reads (esbuild follows its imports; packages stay external): part of the cache
 * key. Remembered in `inputsFile` (APP_INPUTS_FILE) while none of them changes.
 */
export async function appInputs(inputsFile = APP_INPUTS_FILE): Promise<string[]> {
  const remembered = rememberedInputs(inputsFile);
  if (remembered) return remembered;
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
  // esbuild's service process would otherwise live as long as the local cloud (about 250 MB idle): nothing else
  // in the stack's process builds with it.
  await stop();
  const inputs = Object.keys(result.metafile.inputs).sort();
  remember(inputsFile, inputs);
  return inputs;
}

export async function templateHash(context: Record<string, unknown>, inputsFile = APP_INPUTS_FILE): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await appInputs(inputsFile)) {
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

/** How long a start waits for another process's synthesis of the same template (a synthesis takes 2-5 s). */
const SYNTHESIS_WAIT_MS = 180_000;

/** Whether the process that wrote `lock` (its pid) has ended: a start killed while it synthesized. */
function lockHolderGone(lock: string): boolean {
  const pid = Number(fs.readFileSync(lock, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return false; // being written: look again
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Writes `file` with `write` (given a temporary path, renamed into place) unless it exists, once across
 * processes (see the header); true when this call wrote it.
 */
export async function synthesizeOnce(
  file: string,
  write: (partial: string) => Promise<void>,
  waitMs = SYNTHESIS_WAIT_MS,
): Promise<boolean> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + waitMs;
  if (fs.existsSync(file)) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (;;) {
    if (fs.existsSync(file)) return false;
    let fd: number | undefined;
    try {
      fd = fs.openSync(lock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (fd !== undefined) {
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
      try {
        if (fs.existsSync(file)) return false;
        await write(partial);
        fs.renameSync(partial, file);
        return true;
      } finally {
        fs.rmSync(partial, { force: true });
        fs.rmSync(lock, { force: true });
      }
    }
    let gone = false;
    try {
      gone = lockHolderGone(lock);
    } catch {
      // the lock went away between the two looks: try again
    }
    if (gone) fs.rmSync(lock, { force: true });
    else if (Date.now() > deadline)
      throw new Error(`another process has been synthesizing ${path.basename(file)} for ${waitMs / 1000} s (its lock: ${lock})`);
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The template for this context: from the cache when its inputs are unchanged, else synthesized now. */
export async function synthesizedTemplate(context: Record<string, unknown> = {}): Promise<SynthesizedTemplate> {
  const started = Date.now();
  const hash = await templateHash(context);
  const file = path.join(TEMPLATE_CACHE_DIR, `${hash}.json`);
  const cached = !(await synthesizeOnce(file, (partial) => runSynth(partial, context)));
  const template = JSON.parse(fs.readFileSync(file, 'utf8')) as CfnTemplate;
  return { template, file, hash, cached, ms: Date.now() - started };
}
