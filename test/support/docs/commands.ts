/**
 * A shell block as a reader runs it: one command after another (a command ends where bash's own parser,
 * `bash -n`, sees a complete one), each with the answer the page shows for it: a `# -> ...` comment on
 * its last line or on the lines right after it (continued by comment lines indented two spaces or more).
 */
import { spawnSync } from 'node:child_process';

export interface ShellCommand {
  /** 1-based line in the page where the command starts. */
  line: number;
  text: string;
  /** The answer the page shows (`# -> <this>`), if any. */
  answer?: string;
}

const ANSWER_LINE = /^\s*#\s*->\s?(.*)$/;
const ANSWER_CONTINUATION = /^\s*#\s{2,}(.*)$/;
const INLINE_ANSWER = /\s#\s*->\s?(.*)$/;
const HEREDOC = /<<-?\s*(['"]?)(\w+)\1/g;

function bashParses(text: string): boolean {
  return spawnSync('bash', ['-n'], { input: text, stdio: ['pipe', 'ignore', 'ignore'] }).status === 0;
}

/** bash -n accepts a here-document cut off by the end of input: wait for each delimiter line. */
function openHeredoc(lines: string[]): boolean {
  let waiting: string[] = [];
  for (const line of lines) {
    if (waiting.length > 0) {
      if (line.trim() === waiting[0]) waiting = waiting.slice(1);
      continue;
    }
    for (const match of line.matchAll(HEREDOC)) waiting.push(match[2]!);
  }
  return waiting.length > 0;
}

export function shellCommands(block: string, firstLine: number, where: string): ShellCommand[] {
  const lines = block.split('\n');
  const commands: ShellCommand[] = [];
  let pending: string[] = [];
  let pendingStart = 0;
  let answerOpen = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (pending.length === 0) {
      const last = commands[commands.length - 1];
      const answer = ANSWER_LINE.exec(line);
      if (answer) {
        if (!last) throw new Error(`${where}:${firstLine + i}: an answer (# -> ...) before any command`);
        if (last.answer !== undefined) throw new Error(`${where}:${firstLine + i}: a second answer for one command`);
        last.answer = answer[1]!.trim();
        answerOpen = true;
        continue;
      }
      const continuation = ANSWER_CONTINUATION.exec(line);
      if (answerOpen && continuation) {
        last!.answer += ` ${continuation[1]!.trim()}`;
        continue;
      }
      answerOpen = false;
      if (line.trim() === '' || /^\s*#/.test(line)) continue;
      pendingStart = i;
    }
    pending.push(line);
    if (/\\$/.test(line) || openHeredoc(pending)) continue;
    const text = pending.join('\n');
    if (!bashParses(text)) continue;
    const inline = INLINE_ANSWER.exec(line);
    commands.push({ line: firstLine + pendingStart, text, answer: inline ? inline[1]!.trim() : undefined });
    answerOpen = inline !== null;
    pending = [];
  }
  if (pending.length > 0)
    throw new Error(`${where}:${firstLine + pendingStart}: this command never ends (bash -n):\n${pending.join('\n')}`);
  return commands;
}
