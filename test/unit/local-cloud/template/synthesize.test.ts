/**
 * The synthesized template's cache key: it covers what the CDK app reads (so an edit of a construct, a
 * definition or a setting synthesizes again) and the context, and nothing that varies between starts; and
 * stacks starting together synthesize a template once.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appInputs, synthesizeOnce, templateHash } from '#localstack/cloud/template/synthesize';

jest.setTimeout(60_000);

describe('the template cache key', () => {
  it("covers the CDK app, its constructs and definitions and the files they import, of functions/ only the declarations API Gateway's routes come from, not the functions' code", async () => {
    const inputs = await appInputs();
    expect(inputs).toEqual(
      expect.arrayContaining([
        'infra/stacks/mailservice-stack.ts',
        'infra/constructs/grants.ts',
        'infra/definitions/index.ts',
        'infra/definitions/api-groups.ts',
        'infra/definitions/grants.ts',
        'shared/config/config.ts',
        'shared/config/settings.ts',
      ]),
    );
    // infra/api-routes.ts reads the list of every group: each group's operations and schemas, no handler or app.
    const declarations = /^functions\/api\/(operations\.ts|[^/]+\/([a-z-]+-)?(operations|schemas)\.ts)$/;
    expect(inputs).toEqual(
      expect.arrayContaining([
        'functions/api/operations.ts',
        'functions/api/emails/operations.ts',
        'functions/api/account/audit-operations.ts',
      ]),
    );
    expect(inputs.filter((file) => file.startsWith('functions/') && !declarations.test(file))).toEqual([]);
    expect(inputs.some((file) => file.includes('node_modules'))).toBe(false);
  });

  it('is the same for the same inputs and differs with the context (a setting given on npm start)', async () => {
    const plain = await templateHash({});
    expect(await templateHash({})).toBe(plain);
    expect(await templateHash({ sandboxDomain: 'sandbox.example.test' })).not.toBe(plain);
  });
});

describe("the app's inputs remembered between starts", () => {
  const dir = mkdtempSync(join(tmpdir(), 'app-inputs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const remembered = (file: string) =>
    JSON.parse(readFileSync(file, 'utf8')) as { root: string; entry: string; inputs: Record<string, string> };

  it('are found by esbuild once, written with their sizes and times, then read while none of them changes', async () => {
    const file = join(dir, 'inputs.json');
    const found = await appInputs(file);
    const written = remembered(file);
    expect(Object.keys(written.inputs)).toEqual(found);
    expect(written.inputs['infra/stacks/mailservice-stack.ts']).toMatch(/^\d+:[\d.]+$/);
    // A list that is not esbuild's (one file, unchanged) is what the next start reads: nothing was run again.
    writeFileSync(
      file,
      JSON.stringify({ ...written, inputs: { 'infra/stacks/mailservice-stack.ts': written.inputs['infra/stacks/mailservice-stack.ts'] } }),
    );
    expect(await appInputs(file)).toEqual(['infra/stacks/mailservice-stack.ts']);
  });

  it('are found again when one of them changed, or the list was made in another checkout', async () => {
    const file = join(dir, 'changed.json');
    const found = await appInputs(file);
    const written = remembered(file);
    const stale = { ...written, inputs: { 'infra/stacks/mailservice-stack.ts': '1:1' } };
    writeFileSync(file, JSON.stringify(stale));
    expect(await appInputs(file)).toEqual(found);
    expect(remembered(file).inputs).toEqual(written.inputs);
    writeFileSync(
      file,
      JSON.stringify({
        ...written,
        root: '/elsewhere',
        inputs: { 'infra/stacks/mailservice-stack.ts': written.inputs['infra/stacks/mailservice-stack.ts'] },
      }),
    );
    expect(await appInputs(file)).toEqual(found);
  });

  it('a file that is not JSON is found again, not an error', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"root":');
    expect((await appInputs(file)).length).toBeGreaterThan(10);
  });
});

describe('one synthesis per template', () => {
  const dirs: string[] = [];
  const fileIn = () => {
    const dir = mkdtempSync(join(tmpdir(), 'synth-once-'));
    dirs.push(dir);
    return join(dir, 'template.json');
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A synthesis that takes `ms` and counts its runs. */
  const slowWriter = (ms: number) => {
    const runs: string[] = [];
    const write = async (partial: string) => {
      runs.push(partial);
      await new Promise((resolve) => setTimeout(resolve, ms));
      writeFileSync(partial, '{"Resources":{}}');
    };
    return { runs, write };
  };

  it('starts asking for the same template at once: one synthesizes, the others wait for its file', async () => {
    const file = fileIn();
    const { runs, write } = slowWriter(300);
    const wrote = await Promise.all([1, 2, 3].map(() => synthesizeOnce(file, write)));
    expect(runs).toHaveLength(1);
    expect(wrote.filter(Boolean)).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe('{"Resources":{}}');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('a lock left by a process that ended (a start killed mid-synthesis) is taken over', async () => {
    const file = fileIn();
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(`${file}.lock`, ended.stdout);
    const { runs, write } = slowWriter(10);
    await expect(synthesizeOnce(file, write, 5_000)).resolves.toBe(true);
    expect(runs).toHaveLength(1);
  });

  it("a live process's lock is waited for, and a synthesis that never ends fails the wait with the lock's path", async () => {
    const file = fileIn();
    writeFileSync(`${file}.lock`, String(process.pid));
    const { runs, write } = slowWriter(10);
    await expect(synthesizeOnce(file, write, 500)).rejects.toThrow(
      /synthesizing template\.json for 0\.5 s \(its lock: .*template\.json\.lock\)/,
    );
    expect(runs).toHaveLength(0);
  });

  it('a failed synthesis removes its lock, so the next start synthesizes', async () => {
    const file = fileIn();
    await expect(synthesizeOnce(file, async () => Promise.reject(new Error('bad construct')))).rejects.toThrow('bad construct');
    expect(existsSync(`${file}.lock`)).toBe(false);
    const { runs, write } = slowWriter(10);
    await expect(synthesizeOnce(file, write)).resolves.toBe(true);
    expect(runs).toHaveLength(1);
  });
});
