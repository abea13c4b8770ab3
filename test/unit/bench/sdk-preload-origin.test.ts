/**
 * Whose SDK call is it (bench/lib/sdk-preload.cjs): the benchmarks price and count only the product's calls, told
 * by the caller's source file. `npm start` runs bundles (node_modules/.cache/mailservice-commands/), where every
 * frame's file is the bundle: the preload reads the TypeScript file from the bundle's source map. Without that,
 * every call of a bundled stack had no origin and `--cost` priced the product at $0 (2026-11-26 to 27).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';

const PRELOAD = resolve(__dirname, '../../../bench/lib/sdk-preload.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { originOfFile } = require('#bench/lib/sdk-preload.cjs') as { originOfFile(file: string): string | null };

describe("the origin of an SDK call made from the local cloud's bundles", () => {
  let root = '';
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'sdk-origin-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test("a frame in a bundle is named by its source map's TypeScript file, which is the product's", () => {
    const source = join(root, 'src', 'shared', 'adapters', 'store', 'caller.ts');
    mkdirSync(join(root, 'src', 'shared', 'adapters', 'store'), { recursive: true });
    writeFileSync(
      source,
      [
        'export function callSite(): NodeJS.CallSite {',
        '  const prepare = Error.prepareStackTrace;',
        '  Error.prepareStackTrace = (_error, sites) => sites;',
        '  const sites = new Error().stack as unknown as NodeJS.CallSite[];',
        '  Error.prepareStackTrace = prepare;',
        '  return sites[0]!;',
        '}',
      ].join('\n'),
    );
    const bundleDir = join(root, 'node_modules', '.cache', 'mailservice-commands');
    mkdirSync(bundleDir, { recursive: true });
    const bundle = join(bundleDir, 'local-cloud-start.body.cjs');
    buildSync({
      entryPoints: [source],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      sourcemap: 'linked',
      outfile: bundle,
      logLevel: 'silent',
    });

    const script = `const { sourceFileOf } = require(${JSON.stringify(PRELOAD)}); const site = require(${JSON.stringify(bundle)}).callSite(); console.log(JSON.stringify([site.getFileName(), sourceFileOf(site)]));`;
    const [raw, mapped] = JSON.parse(
      execFileSync(process.execPath, ['--enable-source-maps', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } }),
    ) as [string, string];
    expect(raw).toBe(bundle);
    expect(mapped).toBe(source);
    expect(originOfFile(mapped)).toBe('product');
  });

  test('a frame outside the bundles keeps its own file', () => {
    const site = { getFileName: () => '/work/x/shared/usecases/send.ts', getLineNumber: () => 1, getColumnNumber: () => 1 };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { sourceFileOf } = require('#bench/lib/sdk-preload.cjs') as { sourceFileOf(site: unknown): string };
    expect(sourceFileOf(site)).toBe('/work/x/shared/usecases/send.ts');
  });
});
