/**
 * bin/run-bundled.js: the commands run from a bundle built once, rebuilt when one of its sources changes, and
 * several commands started at once each get a whole bundle.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { bundles, CACHE } from '../../../bin/run-bundled';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..', '..');
const MANIFEST = join(CACHE, 'cli.json');
const SOURCE = 'clients/cli/output.ts';
const cli = (...args: string[]) => run(process.execPath, [join(ROOT, 'bin', 'mailservice.js'), ...args], { cwd: ROOT });
const manifest = () =>
  JSON.parse(readFileSync(MANIFEST, 'utf8')) as {
    entries: Record<string, string>;
    node: string;
    root: string;
    inputs: Record<string, string>;
  };

test('the CLI runs from a bundle whose manifest names its sources; an unchanged source is not built again', async () => {
  expect((await cli('--help')).stdout).toMatch(/^Usage: mailservice/);
  const built = statSync(MANIFEST).mtimeMs;
  const { entries, node, root, inputs } = manifest();
  expect({ entries, node, root }).toEqual({ entries: { main: 'clients/cli/main.ts' }, node: process.version, root: ROOT });
  expect(Object.keys(inputs)).toEqual(expect.arrayContaining(['clients/cli/main.ts', SOURCE, 'bin/run-bundled.js']));
  await cli('--help');
  expect(statSync(MANIFEST).mtimeMs).toBe(built);
});

test("a changed source is built again, also by several commands started at once; the code cache's entries are kept", async () => {
  await cli('--help');
  // An entry of V8's code cache (bin/compile-cache.js) made before the build: the installed packages' entries
  // serve the new bundle too, so a build keeps them (pruneCompileCache empties the folder past its bound only).
  const entry = join(CACHE, `v8-${process.version}-${process.arch}`, `before-build-${process.pid}`);
  mkdirSync(join(entry, '..'), { recursive: true });
  writeFileSync(entry, 'stale');
  const { mtime, atime } = statSync(join(ROOT, SOURCE));
  const changed = new Date(mtime.getTime() + 1000);
  utimesSync(join(ROOT, SOURCE), atime, changed);
  try {
    const answers = await Promise.all([1, 2, 3, 4].map(() => cli('--help')));
    for (const answer of answers) expect(answer.stdout).toMatch(/^Usage: mailservice/);
    const { size } = statSync(join(ROOT, SOURCE));
    const [recordedSize, recordedTime] = manifest().inputs[SOURCE]!.split(':').map(Number);
    expect(recordedSize).toBe(size);
    expect(Math.abs(recordedTime! - changed.getTime())).toBeLessThan(1);
    expect(existsSync(entry)).toBe(true);
  } finally {
    utimesSync(join(ROOT, SOURCE), atime, mtime);
    rmSync(entry, { force: true });
  }
});

test("a bundle built with its source map reports errors at the TypeScript source's line", async () => {
  const files = await bundles('test-throws', { main: 'test/fixtures/bundled/throws.ts' }, { sourcemap: true });
  const failed = await run(process.execPath, [files.main!]).then(
    () => undefined,
    (error: { stderr: string }) => error.stderr,
  );
  expect(failed).toMatch(/bundled program failed: on purpose/);
  expect(failed).toMatch(/test\/fixtures\/bundled\/throws\.ts:3:/);
});

test("`npm run admin` is the operator CLI run from its bundle (localstack/admin.cjs): a usage error exits 2 with the CLI's own message", async () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(scripts.admin).toBe('node localstack/admin.cjs');
  // The deployed smoke suite runs from its bundle the same way (test/deployed/run.cjs).
  expect(scripts['test:deployed']).toBe('node test/deployed/run.cjs');
  const failed = await run(process.execPath, [join(ROOT, 'localstack', 'admin.cjs'), '--data-dir'], { cwd: ROOT }).catch(
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('--data-dir needs a folder') });
  const adminManifest = JSON.parse(readFileSync(join(CACHE, 'admin.json'), 'utf8')) as {
    entries: Record<string, string>;
    inputs: Record<string, string>;
  };
  expect(adminManifest.entries).toEqual({ main: 'localstack/admin-main.ts' });
  expect(Object.keys(adminManifest.inputs)).toEqual(expect.arrayContaining(['localstack/admin-local.ts', 'functions/cli/admin.ts']));
});

test("a command's start loads no mail parser: mailparser is loaded by `send --eml` alone (clients/cli/send/eml.ts)", async () => {
  // Every package the process loads, by the request that loaded it, printed at exit.
  const probe = [
    "const Module = require('node:module');",
    'const seen = new Set();',
    'const load = Module._load;',
    'Module._load = function (request, ...rest) { seen.add(request); return load.call(this, request, ...rest); };',
    "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify([...seen]) + '\\n'));",
    "process.argv = [process.argv[0], 'mailservice', '--help'];",
    `require(${JSON.stringify(join(ROOT, 'bin', 'mailservice.js'))});`,
  ].join('\n');
  const { stdout, stderr } = await run(process.execPath, ['-e', probe], { cwd: ROOT });
  expect(stdout).toMatch(/^Usage: mailservice/);
  const loaded = JSON.parse(/LOADED (.*)/.exec(stderr)![1]!) as string[];
  expect(loaded).toEqual(expect.arrayContaining(['commander']));
  expect(loaded.filter((request) => /^(mailparser|libmime|@zone-eu\/mailsplit|linkify-it|encoding-japanese)$/.test(request))).toEqual([]);
});
