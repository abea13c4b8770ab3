/**
 * The fenced code blocks of a markdown page, with their line, language and docs-test mark
 * (docs/docs-examples.md): `<!-- docs-test: skip (why) -->` or `<!-- docs-test: file NAME -->` on the
 * nearest non-blank line before the fence.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './reader-dir';

export type BlockMark = { kind: 'skip'; reason: string } | { kind: 'file'; name: string };

export interface CodeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string's first word, lower-cased ('' for none). */
  lang: string;
  /** The content, without the fence's indentation. */
  text: string;
  mark?: BlockMark;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const MARK = /^\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*$/;

export const SHELL_LANGS = new Set(['sh', 'bash', 'shell']);
export const SCRIPT_LANGS = new Set(['js', 'mjs', 'cjs', 'javascript', 'ts', 'mts', 'typescript']);

function parseMark(body: string, page: string, line: number): BlockMark {
  const skip = /^skip\s*\((.+)\)$/.exec(body);
  if (skip) return { kind: 'skip', reason: skip[1]!.trim() };
  // A plain file name: the reader's folder links the repository's own folders, so a path could write into them.
  const file = /^file\s+([\w-][\w.-]*)$/.exec(body);
  if (file) return { kind: 'file', name: file[1]! };
  throw new Error(`${page}:${line}: unknown docs-test mark "${body}" (expected "skip (reason)" or "file NAME")`);
}

export function codeBlocks(markdown: string, page: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let mark: BlockMark | undefined;
    for (let j = i - 1; j >= 0; j--) {
      if (lines[j]!.trim() === '') continue;
      const found = MARK.exec(lines[j]!);
      if (found) mark = parseMark(found[1]!, page, j + 1);
      break;
    }
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim().startsWith(fence![0]!.repeat(3)) && line.trim().replace(/[`~]/g, '') === '') break;
      body.push(line.startsWith(indent!) ? line.slice(indent!.length) : line.trimStart());
    }
    if (j === lines.length) throw new Error(`${page}:${i + 1}: the code block is never closed`);
    blocks.push({ line: i + 1, lang: (lang ?? '').toLowerCase(), text: body.join('\n'), mark });
    i = j;
  }
  return blocks;
}

/** The code blocks of a page of the repository (`docs/smtp.md`). */
export function pageCodeBlocks(page: string): CodeBlock[] {
  return codeBlocks(readFileSync(join(REPO_ROOT, page), 'utf8'), page);
}

/**
 * The first shell block of a page after the line that starts with `heading` (`## Quick start`): for the
 * tests that run one documented block on the shared stack and check more than the page shows.
 */
export function shellBlockAfter(page: string, heading: string): CodeBlock {
  const markdown = readFileSync(join(REPO_ROOT, page), 'utf8');
  const headingLine = markdown.split('\n').findIndex((line) => line.startsWith(heading)) + 1;
  const block = headingLine > 0 ? codeBlocks(markdown, page).find((b) => b.line > headingLine && SHELL_LANGS.has(b.lang)) : undefined;
  if (!block) throw new Error(`${page} has no shell block after "${heading}"`);
  return block;
}
