/**
 * The benches load some product modules by path at run time (after the stack's environment is set:
 * loadProduct in bench/lib/bench-stack.ts, loadFrom in bench/send/checkout.ts), where the compiler cannot
 * see them: a module moved without its bench would only fail when someone runs the bench. Every such path,
 * and the newest path of each moved module (MOVED), must resolve in this tree.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { MOVED } from '#bench/send/checkout';

const ROOT = resolve(__dirname, '..', '..', '..');

function benchFiles(dir = join(ROOT, 'bench')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return benchFiles(path);
    return /\.(ts|cjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** The literal module paths given to load(...) or loadFrom(root, ...), with the file that gives them. */
function loadedPaths(): { file: string; path: string }[] {
  return benchFiles().flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bload(?:From)?\((?:[A-Za-z.]+,\s*)?'([^']+)'\)/g)].map((match) => ({
      file: relative(ROOT, file),
      path: match[1]!,
    })),
  );
}

const resolves = (path: string) => {
  try {
    require.resolve(join(ROOT, path));
    return true;
  } catch {
    return false;
  }
};

describe('the modules the benches load by path', () => {
  it('finds the loads (the check is not run against nothing)', () => {
    const paths = loadedPaths().map(({ path }) => path);
    expect(paths).toEqual(expect.arrayContaining(['shared/services', 'shared/usecases/access/accounts', 'infra/definitions']));
  });

  it('every path loaded by name resolves in this tree', () => {
    const missing = loadedPaths().filter(({ path }) => !resolves(path));
    expect(missing).toEqual([]);
  });

  it("each moved module's newest path resolves in this tree", () => {
    const missing = Object.entries(MOVED).filter(([, paths]) => !resolves(paths[0]));
    expect(missing).toEqual([]);
  });
});
