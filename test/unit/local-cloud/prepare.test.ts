/**
 * `npm install`'s `prepare` (localstack/prepare.ts): it builds what a fresh clone's first `npm start` would build
 * before it is ready (the local cloud's bundles, each CLI's, the template), and a step that fails never fails the
 * install. The first start it spares: docs/benchmarks.md, "Local cloud walking skeleton".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main, PREPARED } from '#localstack/prepare';
import { PROGRAMS } from '../../../bin/run-bundled';

const ROOT = join(__dirname, '..', '..', '..');

it('is what npm install runs last, and builds the local cloud, every CLI run from a bundle and the template', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(pkg.scripts.prepare).toBe('node localstack/prepare.cjs');
  expect(Object.keys(PROGRAMS).sort()).toEqual(['admin', 'cli', 'mcp']);
  expect(Object.keys(PREPARED).sort()).toEqual(['admin bundle', 'cli bundle', 'local cloud bundles', 'mcp bundle', 'template'].sort());
});

it('a step that fails is printed and the others still run; the install goes on', async () => {
  const ran: string[] = [];
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const steps = {
      first: async () => {
        ran.push('first');
        throw new Error('esbuild missing');
      },
      second: async () => void ran.push('second'),
    };
    await expect(main(steps)).resolves.toBeUndefined();
    expect(ran).toEqual(['first', 'second']);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('prepare: first not built (npm start builds it on first use): esbuild missing'),
    );
  } finally {
    warn.mockRestore();
    log.mockRestore();
  }
});
