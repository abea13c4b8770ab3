/**
 * Each function's import closure is its data footprint (issue 48, "composition by capability"): the
 * shared/services/ modules its handler loads are exactly the `capabilities` its definition declares beside
 * its grants (infra/definitions/capabilities.ts), each module that reaches a resource has the grant for it,
 * every grant is reached by a module, and a function that does not send loads nothing of the send core.
 *
 * The closure is what esbuild's bundler follows from the entry (the deployment's own resolver, packages
 * left out): the same graph `npm run build` bundles.
 */
import { build, type Metafile } from 'esbuild';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { API_GROUPS, MTA_STS_API, SCHEDULED_TASKS, SMTP_RELAY, STREAM_WORKERS, WORKERS } from '#infra/definitions';
import type { Capability } from '#infra/definitions/capabilities';
import type { Grant } from '#infra/definitions/access';

const ROOT = path.resolve(__dirname, '..', '..');

interface FunctionDefinition {
  name: string;
  entry: string;
  capabilities: Capability[];
  grants: Grant[];
}

/** The Lambdas, and the SMTP relay and MX listener's container (its task role's grants). */
const FUNCTIONS: FunctionDefinition[] = [...API_GROUPS, MTA_STS_API, ...WORKERS, ...STREAM_WORKERS, ...SCHEDULED_TASKS, SMTP_RELAY];

/** The resources each capability's module reaches (its clients); a module of the table's repositories reaches it through `platform`. */
const REACHES: Partial<Record<Capability, Grant['resource']['kind'][]>> = {
  platform: ['table'],
  messaging: ['queue'],
  blobs: ['bucket'],
  schedules: ['scheduler'],
  secrets: ['secretsKey'],
  ses: ['ses'],
  'ses-pace': ['ses'],
  'dns-apply': ['route53'],
  'mta-sts-provisioning': ['certificates', 'apiDomains'],
};

/** Helpers of a capability's module, not capabilities of their own. */
const HELPERS: Record<string, Capability> = { 'secret-box-from-environment': 'secrets' };

/** The send core's entry points: accepting a send, and delivering one. */
const SEND_CORE = [
  'shared/usecases/send/send-email.ts',
  'shared/usecases/send/accept-email.ts',
  'shared/usecases/send/send-context-loader.ts',
];
const DELIVERY_CORE = ['shared/usecases/delivery/deliver-email.ts'];

/** The functions of webhooks: endpoints, routing, delivery. */
const WEBHOOK_FUNCTIONS = ['webhooks', 'webhook-router', 'webhook-delivery'];

let closures: Map<string, string[]>;

beforeAll(async () => {
  const result = await build({
    entryPoints: FUNCTIONS.map(({ name, entry }) => ({ in: path.join(ROOT, entry), out: name })),
    absWorkingDir: ROOT,
    outdir: path.join(ROOT, '.test-data', 'function-imports'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  closures = new Map(FUNCTIONS.map(({ name }) => [name, inputsOf(result.metafile, name)]));
}, 60_000);

function inputsOf(metafile: Metafile, name: string): string[] {
  const output = Object.entries(metafile.outputs).find(([file]) => file.endsWith(`/${name}.js`));
  if (!output) throw new Error(`esbuild made no output for ${name}`);
  return Object.keys(output[1].inputs);
}

function closureOf(name: string): string[] {
  const files = closures.get(name);
  if (!files) throw new Error(`no closure for ${name}`);
  return files;
}

/** The capabilities a closure loads: the shared/services/ modules in it (their helpers counted as their owner). */
function loadedCapabilities(files: string[]): string[] {
  const modules = files.flatMap((file) => /^shared\/services\/([^/]+)\.ts$/.exec(file)?.[1] ?? []);
  return [...new Set(modules.map((module) => HELPERS[module] ?? module))].sort();
}

function grantKinds(grants: Grant[]): string[] {
  // Consuming a queue is the event source's (Lambda polls it), not the code's.
  return [...new Set(grants.filter((grant) => grant.access !== 'consume').map((grant) => grant.resource.kind))].sort();
}

function reachedKinds(capabilities: Capability[]): string[] {
  return [...new Set(capabilities.flatMap((capability) => REACHES[capability] ?? []))].sort();
}

describe('each function loads the capabilities its definition declares', () => {
  it.each(FUNCTIONS.map((f) => [f.name, f] as const))('%s', (name, definition) => {
    expect(loadedCapabilities(closureOf(name))).toEqual([...definition.capabilities].sort());
  });

  it('no function loads shared/services/index.ts (every module at once: the local processes, the CLI and tests only)', () => {
    const loading = FUNCTIONS.filter(({ name }) => closureOf(name).includes('shared/services/index.ts')).map(({ name }) => name);
    expect(loading).toEqual([]);
  });

  it('every declared capability is a module of shared/services/ (a file there, not a helper of one)', () => {
    const files = readdirSync(path.join(ROOT, 'shared', 'services')).map((file) => file.replace(/\.ts$/, ''));
    const known = new Set(files.filter((module) => module !== 'index' && HELPERS[module] === undefined));
    const unknown = FUNCTIONS.flatMap(({ name, capabilities }) => capabilities.filter((c) => !known.has(c)).map((c) => `${name}: ${c}`));
    expect(unknown).toEqual([]);
  });
});

describe("each function's capabilities match its grants", () => {
  it.each(FUNCTIONS.map((f) => [f.name, f] as const))('%s reaches exactly the resources it is granted', (_name, definition) => {
    expect(reachedKinds(definition.capabilities)).toEqual(grantKinds(definition.grants));
  });

  it('a function without the table loads no DynamoDB client', () => {
    const withoutTable = FUNCTIONS.filter(({ capabilities }) => !capabilities.includes('platform'));
    // The reference page's function (the API's own document); every stream relay now reads the endpoint counter of the accounts it publishes for.
    expect(withoutTable.map(({ name }) => name)).toEqual(['reference']);
    for (const { name } of withoutTable)
      expect([name, closureOf(name).includes('shared/adapters/aws/dynamo-client.ts')]).toEqual([name, false]);
  });
});

describe('the send core stays where sending is', () => {
  it('only functions with the sending capability load the send core', () => {
    const loading = FUNCTIONS.filter(({ name }) => SEND_CORE.some((file) => closureOf(name).includes(file)));
    expect(loading.length).toBeGreaterThan(0);
    expect(loading.filter(({ capabilities }) => !capabilities.includes('sending')).map(({ name }) => name)).toEqual([]);
  });

  it('only functions with the delivery capability load the delivery core', () => {
    const loading = FUNCTIONS.filter(({ name }) => DELIVERY_CORE.some((file) => closureOf(name).includes(file)));
    expect(loading.map(({ name }) => name)).toEqual(['send-email']);
    expect(loading.every(({ capabilities }) => capabilities.includes('delivery'))).toBe(true);
  });

  it.each(WEBHOOK_FUNCTIONS)('%s loads nothing of sending or delivery, and no SES adapter', (name) => {
    const files = closureOf(name);
    expect(files.filter((file) => /^shared\/usecases\/(send|delivery)\//.test(file) || /^shared\/adapters\/aws\/ses/.test(file))).toEqual(
      [],
    );
  });
});
