/**
 * No function of the product (shared/ and functions/, generated files aside) is longer than 60 lines
 * (issue 48): a long one is cut into named steps. The functions still over it are listed below with their
 * length today; the list only shrinks: a new long function fails, one of the list grown longer fails, and
 * one cut below the limit fails until it leaves the list. The local cloud has lists of its own (issue 51).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const LIMIT = 60;

/** file#function -> its length in lines, as Biome formats it at 140 columns: none left (issue 48 cut them); the list may only stay empty. */
const STILL_LONG: Record<string, number> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(`${dir}/${entry.name}`)
      : /\.ts$/.test(entry.name) && !/\.(generated|d)\.ts$/.test(entry.name)
        ? [`${dir}/${entry.name}`]
        : [],
  );
}

/** A function's name as a reader finds it: its own, its variable's or property's, else what it is an argument of. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  const own = node.name?.getText();
  if (own) return own;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText().split('(')[0]})`;
  return '(anonymous)';
}

/** Every function over LIMIT lines in `file`, as file#name -> lines. */
function longFunctions(file: string, text: string): Map<string, number> {
  const found = new Map<string, number>();
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const lines =
        source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      const key = `${file}#${nameOf(node as ts.FunctionLikeDeclaration)}`;
      if (lines > LIMIT) found.set(key, Math.max(lines, found.get(key) ?? 0));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('no product function is over 60 lines, but for the ones still listed, none of them longer than it was', () => {
  const files = [...sourceFiles('shared'), ...sourceFiles('functions')];
  expect(files.length).toBeGreaterThan(500);
  const long = new Map(files.flatMap((file) => [...longFunctions(file, readFileSync(join(ROOT, file), 'utf8'))]));
  expect(ratchet(long, STILL_LONG, LIMIT, 'steps')).toEqual([]);
});

/**
 * The local cloud (localstack/) is held to the same 60 lines, and its files to 400 (issue 51): none is over
 * either now; the lists may only stay empty, as STILL_LONG above.
 */
/** Empty since issue 51's cuts: a new long function of the local cloud fails. */
const LOCALSTACK_STILL_LONG: Record<string, number> = {};
const FILE_LIMIT = 400;
const LOCALSTACK_STILL_BIG: Record<string, number> = {};

/** Problems of `found` (key -> length) against a ratchet list: new ones over the limit, listed ones grown, listed ones cut. */
function ratchet(found: Map<string, number>, listed: Record<string, number>, limit: number, what: string): string[] {
  const problems = [...found].flatMap(([key, lines]) =>
    listed[key] === undefined
      ? [`${key}: ${lines} lines (over ${limit}: cut it into named ${what})`]
      : lines > listed[key]!
        ? [`${key}: ${lines} lines, longer than the ${listed[key]} listed`]
        : [],
  );
  const cut = Object.keys(listed)
    .filter((key) => !found.has(key))
    .map((key) => `${key}: no longer over ${limit} lines, take it off its list`);
  return [...problems, ...cut];
}

test('no function of the local cloud is over 60 lines, nor any of its files over 400, but for the ones listed', () => {
  const files = sourceFiles('localstack');
  expect(files.length).toBeGreaterThan(300);
  const texts = new Map(files.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
  const long = new Map([...texts].flatMap(([file, text]) => [...longFunctions(file, text)]));
  const big = new Map([...texts].map(([file, text]) => [file, text.split('\n').length] as const).filter(([, lines]) => lines > FILE_LIMIT));
  expect([...ratchet(long, LOCALSTACK_STILL_LONG, LIMIT, 'steps'), ...ratchet(big, LOCALSTACK_STILL_BIG, FILE_LIMIT, 'modules')]).toEqual(
    [],
  );
});

test('the reader finds a long function by its name, whatever its form', () => {
  const body = Array.from({ length: LIMIT }, (_, i) => `  const a${i} = ${i};`).join('\n');
  const text = `export function plain() {\n${body}\n}\nconst arrow = () => {\n${body}\n};\nfunction short() {\n  return 1;\n}\n`;
  expect([...longFunctions('x.ts', text)]).toEqual([
    ['x.ts#plain', LIMIT + 2],
    ['x.ts#arrow', LIMIT + 2],
  ]);
});
