/**
 * A deployed function's code is loaded on its first invocation, as Lambda loads it on a cold start, not when
 * the local cloud starts (localstack/cloud/lambda/function-context.ts `loadOnFirstInvoke`); a failed load is tried
 * again on the next invocation, as Lambda runs a failed init again. The module is loaded inside the
 * function's context, so it reads the function's own environment at load.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOnFirstInvoke, type LocalFunction } from '#localstack/cloud/lambda/function-context';

const dir = mkdtempSync(join(tmpdir(), 'function-loading-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A function whose module counts its loads in globalThis[counter] and answers what it read at load. */
function functionWith(name: string, moduleSource: string): LocalFunction {
  const entry = join(dir, `${name}.cjs`);
  writeFileSync(entry, moduleSource);
  return {
    name,
    functionName: `Mailservice-${name}`,
    arn: `arn:aws:lambda:us-east-1:000000000000:function:Mailservice-${name}`,
    entry,
    handlerExport: 'handler',
    timeoutSeconds: 3,
    memoryMb: 128,
    roleArn: 'arn:aws:iam::000000000000:role/test',
    env: { LOADED_AS: name },
    policies: [],
  };
}

const loads = (counter: string) => (globalThis as Record<string, unknown>)[counter] ?? 0;

describe('loadOnFirstInvoke', () => {
  it('loads nothing until the first invocation, then once, in the function environment', async () => {
    const fn = functionWith(
      'Lazy',
      `globalThis.lazyLoads = (globalThis.lazyLoads ?? 0) + 1;
       const loadedAs = process.env.LOADED_AS;
       exports.handler = async (event) => ({ event, loadedAs, loads: globalThis.lazyLoads });`,
    );
    const handler = loadOnFirstInvoke<(event: string) => Promise<unknown>>(fn);
    expect(loads('lazyLoads')).toBe(0);
    expect(await handler('first')).toEqual({ event: 'first', loadedAs: 'Lazy', loads: 1 });
    expect(await handler('second')).toEqual({ event: 'second', loadedAs: 'Lazy', loads: 1 });
    expect(loads('lazyLoads')).toBe(1);
  });

  it('tries a failed load again on the next invocation', async () => {
    const fn = functionWith(
      'FlakyInit',
      `globalThis.flakyLoads = (globalThis.flakyLoads ?? 0) + 1;
       if (globalThis.flakyLoads === 1) throw new Error('init failed');
       exports.handler = () => 'served';`,
    );
    const handler = loadOnFirstInvoke<() => string>(fn);
    expect(() => handler()).toThrow('init failed');
    expect(handler()).toBe('served');
    expect(handler()).toBe('served');
    expect(loads('flakyLoads')).toBe(2);
  });

  it('names the function when its module does not export the handler', () => {
    const fn = functionWith('NoHandler', 'exports.other = () => 1;');
    const handler = loadOnFirstInvoke<() => unknown>(fn);
    expect(() => handler()).toThrow(`does not export handler (the handler of Mailservice-NoHandler)`);
  });
});
