/**
 * The repository paths the docs and the code comments name (test/infra/named-paths.test.ts):
 * - in a source file, every comment, read with the TypeScript parser (so a `//` inside a string or a URL is
 *   not a comment), and in it each path under one of the repository's top folders
 *   (`shared/usecases/audit/record.ts`) or relative to the file (`./wait.ts`, `../infra/helpers.ts`);
 * - in README.md, CONTRIBUTING.md and docs/**.md, each path under a top folder, and each relative link.
 * A path with a placeholder (`<group>`, `*`, `{id}`, `...`) names a pattern, not a file, and is left out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

export const TOP_FOLDERS = ['shared', 'functions', 'infra', 'localstack', 'clients', 'bin', 'bench', 'test', 'docs'] as const;

export interface NamedPath {
  /** The file, relative to the root. */
  file: string;
  line: number;
  /** The path as the comment writes it. */
  path: string;
  /** Where it points, relative to the root. */
  target: string;
}

/** Every comment of a source file, with the offset it starts at. */
export function commentsOf(fileName: string, text: string): { pos: number; text: string }[] {
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    false,
    fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.forEachChild(visit);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return [...seen.entries()].sort(([a], [b]) => a - b).map(([pos, comment]) => ({ pos, text: comment }));
}

const TOP = TOP_FOLDERS.join('|');
/** A path: a top folder or ./ ../ then segments of file-name characters (placeholders caught after). */
const PATH = new RegExp(`(?<![\\w./@-])((?:\\.\\.?/)+[\\w.\\-/<>*{}\\[\\]]+|(?:${TOP})/[\\w.\\-/<>*{}\\[\\]]+)`, 'g');
const PLACEHOLDER = /[<>*{}[\]]|\.\.\.|\/$/;
/** A container image (`localstack/localstack:4.4.0`), not a path. */
const IMAGE_TAG = /^:\d/;

/** Whether `target` (relative to the root) is a file or folder, or a module written without its extension. */
export function pathExists(root: string, target: string): boolean {
  const full = join(root, target);
  return ['', '.ts', '.tsx', '.js', '.cjs', '.mjs', '.json', '.d.ts', '/index.ts'].some((suffix) => existsSync(full + suffix));
}

/** The paths a piece of text (a comment, a page) names, `offset` being where it starts in its file. */
function pathsIn(root: string, file: string, fileText: string, text: string, offset: number): NamedPath[] {
  const named: NamedPath[] = [];
  for (const match of text.matchAll(PATH)) {
    // Sentence punctuation after a path is not part of it (`see ./wait.ts.`, `(shared/lib/log.ts)`).
    const path = match[1]!.replace(/[.,:;)]+$/, '');
    if (PLACEHOLDER.test(path) || IMAGE_TAG.test(text.slice(match.index! + match[1]!.length)) || !/\w/.test(path.split('/').pop() ?? ''))
      continue;
    const target = path.startsWith('.') ? relative(root, resolve(dirname(join(root, file)), path)) : path;
    const line = fileText.slice(0, offset + match.index!).split('\n').length;
    named.push({ file, line, path, target });
  }
  return named;
}

/** The paths the comments of one source file name. */
export function pathsNamedInComments(root: string, file: string): NamedPath[] {
  const text = readFileSync(join(root, file), 'utf8');
  return commentsOf(file, text).flatMap((comment) => pathsIn(root, file, text, comment.text, comment.pos));
}

/** The paths a Markdown page names: under a top folder (from the root), and its relative links (from the page). */
export function pathsNamedInPage(root: string, file: string): NamedPath[] {
  const text = readFileSync(join(root, file), 'utf8');
  const named = pathsIn(root, file, text, text, 0).filter((path) => !path.path.startsWith('.'));
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = match[1]!.split('#')[0]!;
    if (!link || /^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    named.push({ file, line, path: link, target: relative(root, resolve(dirname(join(root, file)), decodeURIComponent(link))) });
  }
  return named;
}

/** Every file under `folder` (relative to the root) whose name `keep` accepts; node_modules and dot folders left out. */
export function filesUnder(root: string, folder: string, keep: (name: string) => boolean): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (keep(entry.name)) files.push(path);
    }
  };
  if (existsSync(join(root, folder))) walk(folder);
  return files;
}
