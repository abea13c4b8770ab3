/**
 * Summarises V8 .cpuprofile files (node --cpu-prof, or the chunks of cpu-profile-preload.cjs) over a time
 * window: self time by component (npm package, project folder, Node internals, GC, idle) and the hottest
 * functions. V8's profile timestamps are CLOCK_MONOTONIC microseconds on Linux, the clock of
 * process.hrtime, so a window measured in the benchmark's process selects the samples of one phase in
 * the stack's profile, in every thread.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  children?: number[];
}

/** Where the local cloud's bundles live (node_modules/.cache/mailservice-commands/, docs/local-cloud/bundles.md). */
const BUNDLE_DIR = '/node_modules/.cache/mailservice-commands/';
const bundleMaps = new Map<string, { map: SourceMap; dir: string } | null>();

/**
 * A frame's source file: for a frame in one of the local cloud's bundles (every frame of the stack's own code
 * is; npm packages stay outside them), the TypeScript file the bundle's source map names, else its own URL.
 */
function sourceUrlOf(frame: ProfileNode['callFrame']): string {
  return sourceOf(frame).url;
}

/** The frame's source file and 0-based line, through the bundle's source map for a bundled frame. */
function sourceOf(frame: ProfileNode['callFrame']): { url: string; line: number } {
  const own = { url: frame.url, line: frame.lineNumber };
  const path = frame.url.startsWith('file://') ? safePath(frame.url) : frame.url;
  if (!path.includes(BUNDLE_DIR)) return own;
  let loaded = bundleMaps.get(path);
  if (loaded === undefined) {
    try {
      loaded = { map: new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))), dir: dirname(path) };
      // The map names sources relative to the bundle: the checkout that holds the bundle's node_modules is
      // where they are (another one than this bench's when node_modules is a link to it: a worktree).
      addProjectRoot(path.slice(0, path.indexOf(BUNDLE_DIR)));
    } catch {
      loaded = null;
    }
    bundleMaps.set(path, loaded);
  }
  const entry = loaded?.map.findEntry(frame.lineNumber, frame.columnNumber ?? 0) as
    | { originalSource?: string; originalLine?: number }
    | undefined;
  if (!loaded || !entry?.originalSource) return own;
  const source = entry.originalSource.startsWith('file://') ? safePath(entry.originalSource) : entry.originalSource;
  return { url: resolve(loaded.dir, source), line: entry.originalLine ?? frame.lineNumber };
}

function safePath(url: string): string {
  try {
    return fileURLToPath(url);
  } catch {
    return url;
  }
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const ROOTS = [resolve(__dirname, '..', '..')];

/** Another checkout whose files count as project code (the baseline's worktree). */
export function addProjectRoot(root: string): void {
  if (!ROOTS.includes(root)) ROOTS.push(root);
}

function componentOf(url: string): string | null {
  if (!url) return null;
  if (url.startsWith('node:')) {
    const parts = url.slice(5).split('/');
    return `node:${parts[0] === 'internal' && parts.length > 2 ? `internal/${parts[1]}` : parts.join('/')}`;
  }
  let path = url;
  if (url.startsWith('file://')) {
    try {
      path = fileURLToPath(url);
    } catch {
      path = url;
    }
  }
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = path.slice(modules + '/node_modules/'.length).split('/');
    return `npm:${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const inProject = ROOTS.map((root) => relative(root, path)).find((rel) => !rel.startsWith('..'));
  if (inProject !== undefined) {
    const parts = inProject.split('/');
    const depth = parts[0] === 'localstack' && parts[1] === 'emulators' ? 3 : 2;
    return parts.slice(0, Math.min(depth, parts.length - 1)).join('/') || parts[0]!;
  }
  return path;
}

export interface ProfileSummary {
  /** Sampled milliseconds in the window (all, idle included). */
  totalMs: number;
  idleMs: number;
  components: { name: string; ms: number }[];
  functions: { name: string; ms: number }[];
  /** Busy milliseconds by whose work they were (ownerOf): what would run on AWS in the functions, the stand-ins for AWS, neither known. */
  owners: Record<Owner, number>;
}

/**
 * Whose work a sample is: `product` (the functions' own code and what it calls: the AWS SDK's clients,
 * Hono, zod, MIME, DKIM; what would run, and be billed, in a Lambda on AWS), `emulators` (the stand-ins
 * for AWS: the SES, DNS and Scheduler emulators, fauxqs, and the local cloud's runtime: the API gateway,
 * the Lambda adapter, the pollers), or `unattributed` (no frame of either on the stack: Node's sockets and
 * HTTP parsing before a handler, GC, the compiler).
 */
export type Owner = 'product' | 'emulators' | 'unattributed';

/**
 * A thread's CPU (any unit) split in the proportions of its profile's busy samples by owner; all of it
 * unattributed when the profile has no busy sample in the window.
 */
export function splitByOwner(cpu: number, owners: Record<Owner, number>): Record<Owner, number> {
  const busy = owners.product + owners.emulators + owners.unattributed;
  if (busy <= 0) return { product: 0, emulators: 0, unattributed: cpu };
  return {
    product: (cpu * owners.product) / busy,
    emulators: (cpu * owners.emulators) / busy,
    unattributed: (cpu * owners.unattributed) / busy,
  };
}

/** The owner a component decides, or null when it decides nothing (Node internals, shared npm packages). */
export function ownerOf(component: string): Owner | null {
  if (component.startsWith('localstack/')) return 'emulators';
  if (
    /^npm:(fauxqs|fastify|@fastify\/.*|find-my-way|avvio|light-my-request|fast-json-stringify|secure-json-parse|pino.*|fast-querystring|toad-cache|dns-packet)$/.test(
      component,
    )
  )
    return 'emulators';
  if (/^(shared|functions)\//.test(component) || component === 'shared' || component === 'functions') return 'product';
  if (component.startsWith('npm:@aws-sdk/') || component.startsWith('npm:@smithy/') || component.startsWith('npm:@aws-crypto/'))
    return 'product';
  if (
    [
      'npm:hono',
      'npm:zod',
      'npm:nodemailer',
      'npm:mailauth',
      'npm:libmime',
      'npm:libqp',
      'npm:libbase64',
      'npm:mailparser',
      'npm:ulid',
    ].includes(component)
  )
    return 'product';
  return null;
}

/** Sums the summaries of several files (the chunks of one thread) over the same window. */
export function summariseCpuProfiles(files: string[], windowMicros?: { from: number; to: number }): ProfileSummary {
  const components = new Map<string, number>();
  const functions = new Map<string, number>();
  const owners: Record<Owner, number> = { product: 0, emulators: 0, unattributed: 0 };
  let totalMs = 0;
  for (const file of files) {
    const one = summariseCpuProfile(file, windowMicros);
    totalMs += one.totalMs;
    for (const { name, ms } of one.components) components.set(name, (components.get(name) ?? 0) + ms);
    for (const { name, ms } of one.functions) functions.set(name, (functions.get(name) ?? 0) + ms);
    for (const owner of Object.keys(owners) as Owner[]) owners[owner] += one.owners[owner];
  }
  const sorted = (map: Map<string, number>) => [...map].map(([name, value]) => ({ name, ms: value })).sort((a, b) => b.ms - a.ms);
  return { totalMs, idleMs: components.get('(idle)') ?? 0, components: sorted(components), functions: sorted(functions), owners };
}

export interface ProfiledThread {
  pid: number;
  threadId: number;
  /** OS thread id (for /proc/<pid>/task/<tid>). */
  tid: number;
  role: 'main' | 'worker' | 'loader-hooks';
  argv1: string;
  files: string[];
}

/** The threads that wrote profiles into `dir` (cpu-profile-preload.cjs), with their chunk files in order. */
export function profiledThreads(dir: string): ProfiledThread[] {
  if (!existsSync(dir)) return [];
  const entries = readdirSync(dir);
  const threads: ProfiledThread[] = [];
  for (const meta of entries.filter((file) => file.endsWith('.meta.json'))) {
    const info = JSON.parse(readFileSync(join(dir, meta), 'utf8')) as Omit<ProfiledThread, 'files'>;
    const prefix = `${info.pid}-${info.threadId}-`;
    const files = entries
      .filter((file) => file.startsWith(prefix) && file.endsWith('.cpuprofile'))
      .sort()
      .map((file) => join(dir, file));
    threads.push({ ...info, files });
  }
  return threads.sort((a, b) => a.pid - b.pid || a.threadId - b.threadId);
}

export function summariseCpuProfile(file: string, windowMicros?: { from: number; to: number }): ProfileSummary {
  let profile: CpuProfile;
  try {
    profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  } catch {
    return emptySummary();
  }
  if (windowMicros && (profile.endTime < windowMicros.from || profile.startTime > windowMicros.to)) return emptySummary();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // A native frame (no URL) is charged to the component of its nearest JavaScript caller.
  const componentCache = new Map<number, string>();
  const componentFor = (id: number): string => {
    const cached = componentCache.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    let component: string;
    if (name === '(garbage collector)' || name === '(idle)' || name === '(program)' || name === '(root)') component = name;
    else {
      component = componentOf(sourceUrlOf(node.callFrame)) ?? '';
      if (!component) {
        const up = parent.get(id);
        component = up === undefined ? '(native)' : componentFor(up);
        if (component.startsWith('(')) component = '(native)';
      }
    }
    componentCache.set(id, component);
    return component;
  };

  // The owner of a sample: the first frame from the leaf up whose component decides one (ownerOf).
  const ownerCache = new Map<number, Owner>();
  const ownerFor = (id: number): Owner => {
    const cached = ownerCache.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    const decided = node.callFrame.url ? ownerOf(componentOf(sourceUrlOf(node.callFrame)) ?? '') : null;
    const up = parent.get(id);
    const owner = decided ?? (up === undefined ? 'unattributed' : ownerFor(up));
    ownerCache.set(id, owner);
    return owner;
  };

  const components = new Map<string, number>();
  const functions = new Map<string, number>();
  const owners: Record<Owner, number> = { product: 0, emulators: 0, unattributed: 0 };
  let total = 0;
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    if (windowMicros && (time < windowMicros.from || time > windowMicros.to)) continue;
    const duration = Math.max(0, profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    const id = profile.samples[i]!;
    const node = byId.get(id)!;
    const component = componentFor(id);
    components.set(component, (components.get(component) ?? 0) + duration);
    const source = node.callFrame.url ? sourceOf(node.callFrame) : null;
    const where = source ? `${componentOf(source.url)}:${source.line + 1}` : component;
    const fn = `${node.callFrame.functionName || '(anonymous)'} ${where}`;
    functions.set(fn, (functions.get(fn) ?? 0) + duration);
    if (component !== '(idle)') owners[ownerFor(id)] += duration;
    total += duration;
  }
  const sorted = (map: Map<string, number>) => [...map].map(([name, value]) => ({ name, ms: value })).sort((a, b) => b.ms - a.ms);
  return { totalMs: total, idleMs: components.get('(idle)') ?? 0, components: sorted(components), functions: sorted(functions), owners };
}

const emptySummary = (): ProfileSummary => ({
  totalMs: 0,
  idleMs: 0,
  components: [],
  functions: [],
  owners: { product: 0, emulators: 0, unattributed: 0 },
});

/** Coarse buckets over components, for a one-line answer to "where does the time go". */
export function bucketOf(component: string): string {
  if (component === '(idle)') return '(idle)';
  if (component === '(garbage collector)') return 'garbage collector';
  if (component === '(program)') return 'V8 (program: compiler, runtime)';
  if (component.startsWith('npm:@smithy/') || component.startsWith('npm:@aws-sdk/') || component.startsWith('npm:@aws-crypto/'))
    return 'AWS SDK v3 (serialise, sign, parse, middleware)';
  if (component === 'node:internal/crypto' || component === 'node:crypto') return 'crypto (SigV4 HMAC/SHA-256, DKIM RSA)';
  if (
    /^node:(_http|http|net|internal\/(http|stream_base_commons|streams|net)|events|internal\/process|internal\/timers|timers|internal\/async_hooks)/.test(
      component,
    )
  )
    return 'Node HTTP, sockets, streams, events, microtasks';
  if (
    /^npm:(fauxqs|fastify|@fastify\/.*|find-my-way|avvio|light-my-request|fast-json-stringify|secure-json-parse|pino.*|fast-querystring|toad-cache)$/.test(
      component,
    )
  )
    return 'fauxqs (SQS/SNS/S3 emulator, on fastify)';
  if (component.startsWith('localstack/emulators')) return 'SES/DNS/Scheduler emulators';
  if (component === 'localstack/cloud') return 'local cloud runtime (API gateway, Lambda adapter, pollers)';
  if (component === 'npm:hono' || component.startsWith('shared/doors/http') || component.startsWith('functions/api'))
    return 'API frame (Hono, middleware)';
  if (component === 'npm:tsx' || component === 'npm:esbuild' || component === 'npm:get-tsconfig')
    return 'tsx (module loading, transpiling)';
  if (component === 'npm:zod') return 'zod (validation)';
  if (
    [
      'npm:nodemailer',
      'npm:mailauth',
      'npm:libmime',
      'npm:libqp',
      'npm:libbase64',
      'npm:punycode.js',
      'shared/domain/mime',
      'shared/lib/dkim',
    ].includes(component)
  )
    return 'MIME composition and DKIM';
  if (/^(shared|functions|localstack)\//.test(component)) return 'other project code';
  if (component.startsWith('node:')) return 'other Node internals (url, buffer, ...)';
  return 'other';
}
