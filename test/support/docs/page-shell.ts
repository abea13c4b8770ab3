/**
 * One bash per page, kept for the whole page, as a reader's terminal: variables set by one command are
 * there for the next. Each command is sourced from a file (its stdin is /dev/null, so nothing it runs
 * can eat the next command) with `set -u -o pipefail`: a variable the page never set is an error, as is
 * a failing stage of a pipeline. `curl` is wrapped to record the headers of the last answer, so the
 * test knows the HTTP status a command got (nothing else changes for the command).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CommandResult {
  status: number;
  stdout: string;
  stderr: string;
  /** The status line of the last HTTP answer a curl of the command got. */
  httpStatus?: number;
  /** The shell itself ended (e.g. `exit`, or `set -u` on a variable never set). */
  shellExited?: boolean;
}

/**
 * `npx <program>` and `npm run --silent <script>` as npm runs them for this repository, without npm's own
 * start-up (about 0.5 s of CPU for each of the 100-odd calls of the pages): `npx` of a program installed in
 * node_modules/.bin runs that file, as npm exec does once it has found it there; `npm run --silent` of a
 * script that runs `node` runs its package.json line in `sh` with the arguments after `--` appended and
 * node_modules/.bin first on PATH, as npm run-script does. Anything else (`npm start`, `npx` of a package not
 * installed, other npm commands) goes to npm itself. test/unit/docs/launcher-shortcuts.test.ts runs the same
 * commands both ways and compares what they print and their exit status.
 */
export const LAUNCHER_SHORTCUTS = [
  'npx() {',
  '  if [[ $# -gt 0 && "$1" != -* && -x "node_modules/.bin/$1" ]]; then',
  '    local __docs_bin="node_modules/.bin/$1"; shift; "$__docs_bin" "$@"; return',
  '  fi',
  '  command npx "$@"',
  '}',
  'npm() {',
  '  if [[ $# -ge 3 && "$1" == run && "$2" == --silent ]]; then',
  '    local __docs_script; __docs_script=$(command jq -r --arg name "$3" \'.scripts[$name] // ""\' package.json)',
  '    if [[ "$__docs_script" == "node "* ]]; then',
  '      local __docs_name="$3"; shift 3; if [[ $# -gt 0 && "$1" == -- ]]; then shift; fi',
  '      npm_lifecycle_event="$__docs_name" npm_lifecycle_script="$__docs_script" PATH="$PWD/node_modules/.bin:$PATH" \\',
  '        sh -c "$__docs_script \\"\\$@\\"" "$__docs_name" "$@"; return',
  '    fi',
  '  fi',
  '  command npm "$@"',
  '}',
];

export class PageShell {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly mark = `@@docs-test-${randomUUID()}@@`;
  private stdout = '';
  private stderr = '';
  private exited = false;
  private wake: (() => void) | undefined;
  private counter = 0;

  /** Where the commands' files and the last answer's headers are kept (removed by close()). */
  private readonly scratch = mkdtempSync(join(tmpdir(), 'mailservice-docs-shell-'));

  constructor(dir: string, env: NodeJS.ProcessEnv) {
    const headers = join(this.scratch, 'headers');
    const driver = [
      'set -u -o pipefail',
      `__docs_headers=${JSON.stringify(headers)}`,
      'curl() { command curl -D "$__docs_headers" "$@"; }',
      ...LAUNCHER_SHORTCUTS,
      'while IFS= read -r __docs_file <&3; do',
      '  : > "$__docs_headers"',
      '  source "$__docs_file" </dev/null',
      '  __docs_status=$?',
      `  printf '\\n${this.mark} %s\\n' "$__docs_status"`,
      `  printf '\\n${this.mark}\\n' >&2`,
      'done',
    ].join('\n');
    this.child = spawn('bash', ['--noprofile', '--norc', '-c', driver], {
      cwd: dir,
      env,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      detached: true,
    }) as unknown as ChildProcessWithoutNullStreams;
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      this.wake?.();
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
      this.wake?.();
    });
    this.child.once('exit', () => {
      this.exited = true;
      this.wake?.();
    });
  }

  private lastHttpStatus(): number | undefined {
    let headers = '';
    try {
      headers = readFileSync(join(this.scratch, 'headers'), 'utf8');
    } catch {
      return undefined;
    }
    const statuses = [...headers.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)];
    return statuses.length ? Number(statuses[statuses.length - 1]![1]) : undefined;
  }

  async run(command: string, timeoutMs: number): Promise<CommandResult> {
    if (this.exited) return { status: -1, stdout: '', stderr: 'the page shell has ended', shellExited: true };
    const file = join(this.scratch, `command-${++this.counter}.sh`);
    writeFileSync(file, `${command}\n`);
    (this.child.stdio[3] as NodeJS.WritableStream).write(`${file}\n`);
    const end = new RegExp(`\\n?${this.mark} (\\d+)\\n`);
    const errEnd = `\n${this.mark}\n`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const done = end.exec(this.stdout);
      if (done && this.stderr.includes(errEnd)) {
        const stdout = this.stdout.slice(0, done.index);
        const stderr = this.stderr.slice(0, this.stderr.indexOf(errEnd));
        this.stdout = this.stdout.slice(done.index + done[0].length);
        this.stderr = this.stderr.slice(this.stderr.indexOf(errEnd) + errEnd.length);
        return { status: Number(done[1]), stdout, stderr, httpStatus: this.lastHttpStatus() };
      }
      if (this.exited) return { status: this.child.exitCode ?? -1, stdout: this.stdout, stderr: this.stderr, shellExited: true };
      if (Date.now() > deadline) {
        this.close();
        return {
          status: -1,
          stdout: this.stdout,
          stderr: `${this.stderr}\n(no answer within ${timeoutMs} ms: the command was stopped)`,
          shellExited: true,
        };
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 250);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  close(): void {
    rmSync(this.scratch, { recursive: true, force: true });
    if (this.exited) return;
    try {
      // The shell and whatever it still runs: its own process group (detached).
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }
}
