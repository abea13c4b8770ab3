/** infra/build.ts: one self-contained CommonJS bundle per function, clear error on a missing entry. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { API_GROUPS, MTA_STS_API, SCHEDULED_TASKS, STREAM_WORKERS, WORKERS } from '#infra/definitions';
import { MissingEntryError, buildFunctions } from '#infra/build';
import { functionEntries } from '#infra/functions';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mailservice-build-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('the functions to build are every API group, worker, stream worker and scheduled task of the definitions', () => {
  expect(functionEntries().map((e) => [e.name, e.entry])).toEqual(
    [...API_GROUPS, MTA_STS_API, ...WORKERS, ...STREAM_WORKERS, ...SCHEDULED_TASKS].map((d) => [d.name, d.entry]),
  );
});

test('bundles an entry with its dependencies, the AWS SDK included, into <outDir>/<name>/index.js', async () => {
  const entry = path.join(tmp, 'src', 'handler.ts');
  fs.mkdirSync(path.dirname(entry), { recursive: true });
  fs.writeFileSync(
    entry,
    `import { SQSClient } from '@aws-sdk/client-sqs';
     const client = new SQSClient({ region: 'us-east-1' });
     export const handler = async (event: { n: number }): Promise<number> => event.n * 2 + (client ? 0 : 1);`,
  );
  const outDir = path.join(tmp, 'out');
  // A stale file of a previous build must not survive (the directory is the Lambda asset).
  fs.mkdirSync(path.join(outDir, 'probe'), { recursive: true });
  fs.writeFileSync(path.join(outDir, 'probe', 'stale.js'), '');

  const built = await buildFunctions({ outDir, entries: [{ name: 'probe', entry }] });

  expect(built).toHaveLength(1);
  const file = path.join(outDir, 'probe', 'index.js');
  expect(built[0]).toMatchObject({ name: 'probe', file, bytes: fs.statSync(file).size });
  expect(fs.readdirSync(path.join(outDir, 'probe')).sort()).toEqual(['THIRD_PARTY_LICENSES.txt', 'index.js', 'index.js.map']);
  // The bundled packages' licence notices travel with the code (the bundle strips comments).
  const notices = fs.readFileSync(path.join(outDir, 'probe', 'THIRD_PARTY_LICENSES.txt'), 'utf8');
  expect(notices).toMatch(/^@aws-sdk\/client-sqs@[\d.]+ \(Apache-2\.0\)$/m);
  expect(notices).toMatch(/^@smithy\/core@[\d.]+ \(Apache-2\.0\)$/m);
  expect(notices).toContain('Apache License');
  // Only what the bundle contains: not the packages the build read and left out whole (bowser, the SDK's
  // browser user agent, is imported by the client and shaken out of a Node bundle).
  expect(notices).not.toMatch(/^bowser@/m);
  expect(notices).not.toMatch(/^typescript@/m);
  const code = fs.readFileSync(file, 'utf8');
  expect(code).toMatch(/sourceMappingURL=index\.js\.map/);
  // The SDK client is inside the bundle (names are kept for stack traces)...
  expect(code).toContain('"SQSClient"');
  // ...and the bundle loads from the temp directory, where no node_modules can resolve @aws-sdk.
  // CommonJS with `handler` exported, as Lambda's `index.handler` expects.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true'; // the bundled SDK warns on Node 20
  const mod = require(file) as { handler: (e: { n: number }) => Promise<number> };
  await expect(mod.handler({ n: 21 })).resolves.toBe(42);
});

test('fails before building, naming every missing entry', async () => {
  const outDir = path.join(tmp, 'missing');
  const run = buildFunctions({
    outDir,
    entries: [
      { name: 'emails', entry: 'functions/api/nope/handler.ts' },
      { name: 'other', entry: 'functions/workers/nope/handler.ts' },
    ],
  });
  await expect(run).rejects.toBeInstanceOf(MissingEntryError);
  await expect(run).rejects.toThrow(
    /functions\/api\/nope\/handler\.ts \(function "emails"\)[\s\S]*functions\/workers\/nope\/handler\.ts \(function "other"\)/,
  );
  expect(fs.existsSync(outDir)).toBe(false);
});
