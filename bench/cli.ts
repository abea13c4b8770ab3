/**
 * How fast the command-line clients start (issue 50, item 6; docs/benchmarks.md, "Client start"). Prints,
 * never asserts.
 *
 *   npm run bench:cli [-- --runs 15]
 *
 * Each program runs --runs times in a fresh `node` process, one at a time, after one warm-up run (which
 * builds the bundle when a source changed: bin/run-bundled.js); medians and the slowest run of its wall time
 * (spawn to exit, or to the first answer) and its own CPU (user + system, written by a preload at exit:
 * bench/lib/exit-cpu.cjs). Beside them, in the same run, the floor: a bare `node -e ''` with the same
 * preload. The goal: `mailservice --help` under 300 ms of wall time.
 *
 * Programs: `mailservice --help`, `mailservice send --help` (a command's own options: its module loaded),
 * and the MCP stdio server until it answers `initialize` (what an MCP client waits for at each session).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ms, table } from './lib/stats';
import { startFigures, type StartRun } from './lib/start-figures';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' } } });
const RUNS = Number(values.runs);
const ROOT = resolve(__dirname, '..');
const PRELOAD = join(__dirname, 'lib', 'exit-cpu.cjs');
const GOAL_MS = 300;

interface Program {
  name: string;
  args: string[];
  /** Ends the run at this line of stdout (the process is then stopped); otherwise at exit. */
  answeredWhen?: (line: string) => boolean;
  stdin?: string;
  env?: Record<string, string>;
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})}\n`;

const PROGRAMS: Program[] = [
  { name: "node -e '' (floor)", args: ['-e', ''] },
  { name: 'mailservice --help', args: ['bin/mailservice.js', '--help'] },
  { name: 'mailservice send --help', args: ['bin/mailservice.js', 'send', '--help'] },
  {
    name: 'mailservice-mcp to its initialize answer',
    args: ['bin/mailservice-mcp.js'],
    stdin: INITIALIZE,
    answeredWhen: (line) => line.includes('"id":1'),
    env: { MAILSERVICE_API_KEY: 'ms_bench_not_used', MAILSERVICE_BASE_URL: 'http://127.0.0.1:9' },
  },
];

/** One run: wall time to exit (or to the answer), and the CPU the preload wrote at exit. */
function runOnce(program: Program, scratch: string, index: number): Promise<StartRun> {
  const cpuFile = join(scratch, `cpu-${index}.json`);
  const started = process.hrtime.bigint();
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, ['--require', PRELOAD, ...program.args], {
      cwd: ROOT,
      env: { ...process.env, ...program.env, BENCH_EXIT_CPU_FILE: cpuFile },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let wallMs: number | undefined;
    let answeredMs: number | undefined;
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (!program.answeredWhen || answeredMs !== undefined) return;
      buffered += chunk.toString();
      if (buffered.split('\n').some(program.answeredWhen)) {
        answeredMs = Number(process.hrtime.bigint() - started) / 1e6;
        wallMs = answeredMs;
        child.stdin.end();
        child.kill('SIGTERM');
      }
    });
    if (program.stdin) child.stdin.write(program.stdin);
    else child.stdin.end();
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      // A server is stopped once it has answered; anything else must end on its own, successfully.
      const answered = answeredMs !== undefined;
      wallMs ??= Number(process.hrtime.bigint() - started) / 1e6;
      if (!answered && code !== 0) {
        reject(new Error(`${program.name} exited with ${code ?? signal}${program.answeredWhen ? ' before it answered' : ''}`));
        return;
      }
      let cpuMs = Number.NaN;
      try {
        cpuMs = JSON.parse(readFileSync(cpuFile, 'utf8')).cpuMs;
      } catch {
        // killed before its exit handler ran: the CPU is unknown for this run
      }
      resolveRun({ wallMs, cpuMs });
    });
  });
}

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-cli-'));
  const rows: string[][] = [];
  const figures = new Map<string, ReturnType<typeof startFigures>>();
  try {
    for (const program of PROGRAMS) {
      await runOnce(program, scratch, -1);
      const runs: StartRun[] = [];
      for (let index = 0; index < RUNS; index++) runs.push(await runOnce(program, scratch, index));
      figures.set(program.name, startFigures(runs));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const floor = figures.get(PROGRAMS[0]!.name)!;
  for (const [name, figure] of figures) {
    rows.push([
      name,
      ms(figure.wall.median, 0),
      ms(figure.wall.max, 0),
      ms(figure.cpu.median, 0),
      figure === floor ? '-' : `+${ms(figure.wall.median - floor.wall.median, 0)}`,
    ]);
  }
  console.log(`[bench:cli] ${RUNS} runs each (after a warm-up run), Node ${process.version}`);
  console.log(table(['program', 'wall ms (median)', 'wall ms (slowest)', 'CPU ms (median)', 'wall over the floor'], rows));
  const help = figures.get('mailservice --help')!;
  console.log(
    `[bench:cli] goal: mailservice --help under ${GOAL_MS} ms of wall time: ${ms(help.wall.median, 0)} ms median ` +
      `(${help.wall.median < GOAL_MS ? 'met' : 'not met'}; the floor ${ms(floor.wall.median, 0)} ms)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
