/**
 * Runs one page's examples as a reader would (docs/docs-examples.md): its shell blocks in order, in one
 * bash of its own, each command checked: it must exit 0, get no HTTP error and print no error envelope
 * unless the page shows that answer, and print what the page shows (`# -> ...`). A read (a `curl`
 * without a body or another method) whose answer is not there yet is repeated for up to `settleMs`, as a
 * reader looks again. The page stops at its first failure (what follows depends on it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { answerMismatch, parseShownAnswer, printedJson } from './answer';
import { shellCommands, type ShellCommand } from './commands';
import { pageCodeBlocks, SCRIPT_LANGS, SHELL_LANGS } from './markdown';
import { PageShell, type CommandResult } from './page-shell';

export interface PageOptions {
  /** The reader's folder (reader-dir.ts). */
  dir: string;
  env: NodeJS.ProcessEnv;
  rewrite: (text: string) => string;
  commandTimeoutMs?: number;
  settleMs?: number;
}

export interface PageRun {
  page: string;
  commands: number;
  skipped: string[];
  failure?: string;
  ms: number;
  /** Each command's line and time (ms), in order. */
  timings: [number, number][];
  /** The page's shell, still open when `keepShell` was asked (the caller closes it). */
  shell?: PageShell;
}

const WRITES = /(^|\s)(-d|--data(-\w+)?|-F|--form|-T|--upload-file|--json)(\s|=|$)|\s-X\s*['"]?(POST|PUT|PATCH|DELETE)/;

/** A command that only reads over HTTP, safe to run again. */
export function isRead(text: string): boolean {
  const command = text.replace(/\s#\s*->.*$/gm, '');
  const writesFile = [...command.matchAll(/>>?\s*([^\s&|;]+)/g)].some((redirect) => redirect[1] !== '/dev/null');
  return /\bcurl\b/.test(command) && !WRITES.test(command) && !/\b(npm|npx|node|swaks|tee)\b/.test(command) && !writesFile;
}

function clip(text: string, max = 4000): string {
  return text.length > max ? `${text.slice(0, max)}\n... (${text.length - max} more characters)` : text;
}

function report(page: string, command: ShellCommand, problem: string, result: CommandResult): string {
  return [
    `${page}:${command.line}: ${problem}`,
    `$ ${command.text}`,
    `--- exit ${result.status}${result.httpStatus ? `, HTTP ${result.httpStatus}` : ''}; stdout:`,
    clip(result.stdout.trim() || '(nothing)'),
    '--- stderr:',
    clip(result.stderr.trim() || '(nothing)'),
  ].join('\n');
}

/** Why a command's run is not what the page shows (its addresses rewritten as the command's), or null. */
function problemOf(command: ShellCommand, result: CommandResult, rewrite: (text: string) => string): string | null {
  if (result.shellExited) return 'the shell ended (a variable the page never set, `exit`, or a timeout)';
  if (result.status !== 0) return `the command failed (exit ${result.status})`;
  if (command.answer !== undefined) {
    let mismatch: string | null;
    try {
      mismatch = answerMismatch(parseShownAnswer(rewrite(command.answer)), result);
    } catch (error) {
      return (error as Error).message;
    }
    return mismatch ? `the answer is not the one shown (# -> ${command.answer}): ${mismatch}` : null;
  }
  if (result.httpStatus !== undefined && result.httpStatus >= 400) return `HTTP ${result.httpStatus}, and the page shows no answer for it`;
  const isError = (value: unknown) =>
    typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'object';
  if (printedJson(result.stdout).some(isError)) return 'the answer is an error, and the page shows no answer for it';
  return null;
}

/**
 * Runs one command in the page's shell and checks it (a read repeated until its answer shows, up to
 * `settleMs`); answers the failure report, or null.
 */
export async function runCommand(
  shell: PageShell,
  page: string,
  command: ShellCommand,
  options: Pick<PageOptions, 'rewrite' | 'commandTimeoutMs' | 'settleMs'>,
): Promise<string | null> {
  let text: string;
  try {
    text = options.rewrite(command.text);
  } catch (error) {
    return `${page}:${command.line}: ${(error as Error).message}`;
  }
  const deadline = Date.now() + (options.settleMs ?? 60_000);
  let result = await shell.run(text, options.commandTimeoutMs ?? 60_000);
  let problem = problemOf(command, result, options.rewrite);
  while (
    problem &&
    command.answer !== undefined &&
    !result.shellExited &&
    result.status === 0 &&
    isRead(command.text) &&
    Date.now() < deadline
  ) {
    await new Promise((r) => setTimeout(r, 500));
    result = await shell.run(text, options.commandTimeoutMs ?? 60_000);
    problem = problemOf(command, result, options.rewrite);
  }
  return problem ? report(page, command, problem, result) : null;
}

export async function runPage(page: string, options: PageOptions & { keepShell?: boolean }): Promise<PageRun> {
  const started = Date.now();
  const run: PageRun = { page, commands: 0, skipped: [], ms: 0, timings: [] };
  const shell = new PageShell(options.dir, options.env);
  try {
    for (const block of pageCodeBlocks(page)) {
      const where = `${page}:${block.line}`;
      if (block.mark?.kind === 'skip') {
        run.skipped.push(`${where} (${block.mark.reason})`);
        continue;
      }
      if (block.mark?.kind === 'file') {
        const target = join(options.dir, block.mark.name);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, options.rewrite(`${block.text}\n`));
        continue;
      }
      if (SCRIPT_LANGS.has(block.lang)) {
        throw new Error(
          `${where}: a ${block.lang} snippet the test cannot run: put <!-- docs-test: file NAME --> before it (and run NAME in a shell block), or <!-- docs-test: skip (why) -->`,
        );
      }
      if (!SHELL_LANGS.has(block.lang)) continue;
      for (const command of shellCommands(block.text, block.line + 1, page)) {
        run.commands++;
        const commandStarted = Date.now();
        const failure = await runCommand(shell, page, command, options);
        run.timings.push([command.line, Date.now() - commandStarted]);
        if (failure) {
          run.failure = failure;
          return run;
        }
      }
    }
    if (options.keepShell) run.shell = shell;
    return run;
  } catch (error) {
    // The page itself cannot be read as the convention says (a mark, a command that never ends, a port).
    run.failure = (error as Error).message;
    return run;
  } finally {
    run.ms = Date.now() - started;
    if (!run.shell) shell.close();
  }
}
