/**
 * `npm start` stops the whole stack (its Node processes and DynamoDB Local's Java) when its own process,
 * npm, gets SIGTERM or SIGINT, or is killed. npm passes SIGTERM and SIGINT to its child, which used to be a
 * `sh -c` that died of the first and ignored the second without passing either on, so the stack kept
 * serving; the script now `exec`s node on localstack/launch.cjs (package.json), and localstack/cloud/stack/launcher-watch.ts stops the
 * stack when npm dies without passing anything (SIGKILL). Run as a reader runs it: the real `npm start`
 * in a process group of its own, the signal sent to npm's pid only.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitFor } from '../support/wait';
import { OWN_STACKS_DYNAMODB_ENV } from './harness/spawn-stack';

const ROOT = resolve(__dirname, '..', '..');

interface GroupMember {
  pid: number;
  command: string;
}

/** Every process of process group `pgid`, from /proc. */
function processGroup(pgid: number): GroupMember[] {
  const members: GroupMember[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[0] is the state, [1] ppid, [2] pgrp; a zombie is already gone as far as serving goes.
      if (Number(fields[2]) !== pgid || fields[0] === 'Z') continue;
      members.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim() });
    } catch {
      // exited while we looked
    }
  }
  return members;
}

function portOpen(address: string): Promise<boolean> {
  const url = new URL(address.includes('://') ? address : `tcp://${address}`);
  return new Promise((resolveOpen) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    socket.once('connect', () => {
      socket.destroy();
      resolveOpen(true);
    });
    socket.once('error', () => resolveOpen(false));
  });
}

function portOf(address: string): number {
  return Number(new URL(address.includes('://') ? address : `tcp://${address}`).port);
}

/**
 * The processes listening on TCP `port` (from /proc/net/tcp and tcp6 and each process's fds), with when each
 * started (clock ticks since boot, so a reused pid is told apart): a port freed by the stopped stack can be taken
 * at once by another stack of the suite running beside this test (every listener here is on a free port the
 * kernel picks).
 */
function listenersOn(port: number): { pid: number; startTicks: number }[] {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '0A') continue; // 0A: LISTEN
      if (Number.parseInt(fields[1]!.split(':')[1]!, 16) === port) inodes.add(fields[9]!);
    }
  }
  const owners: { pid: number; startTicks: number }[] = [];
  if (inodes.size === 0) return owners;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const sockets = readdirSync(`/proc/${entry}/fd`).map((fd) => {
        try {
          return readlinkSync(`/proc/${entry}/fd/${fd}`);
        } catch {
          return '';
        }
      });
      if (!sockets.some((link) => inodes.has(link.replace(/^socket:\[(\d+)\]$/, '$1')))) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      owners.push({ pid: Number(entry), startTicks: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) });
    } catch {
      // exited while we looked, or not ours to read
    }
  }
  return owners;
}

/** Polls (test/support/wait.ts) until `done`; a timeout shows `describeState()` as it last was. */
async function waitUntil(
  what: string,
  done: () => Promise<boolean> | boolean,
  timeoutMs: number,
  describeState: () => string,
): Promise<void> {
  await waitFor(
    async () => {
      if (await done()) return true;
      throw new Error(describeState());
    },
    what,
    timeoutMs,
    200,
  );
}

/**
 * `java`: the stack starts its own DynamoDB Local, whose Java must stop with it; `shared`: it uses the suite's
 * DynamoDB Local for the test files' own stacks (./harness/spawn-stack.ts), under a stack name of its own, as
 * `LOCAL_DYNAMODB_ENDPOINT` lets any `npm start` do: a JVM less to start (about 4 s of CPU) where the signal's
 * path, not Java's stop, is what is tested.
 */
type Dynamo = 'java' | 'shared';

function dynamoEnv(dynamo: Dynamo): Record<string, string> {
  if (dynamo === 'java') return { LOCAL_DYNAMODB_ENDPOINT: '', LOCAL_STACK_NAME: '' };
  const endpoint = process.env[OWN_STACKS_DYNAMODB_ENV];
  if (!endpoint)
    throw new Error(`${OWN_STACKS_DYNAMODB_ENV} is not set: run this file through Jest's integration project (its global setup)`);
  return { LOCAL_DYNAMODB_ENDPOINT: endpoint, LOCAL_STACK_NAME: `Mailservice-${randomBytes(4).toString('hex')}` };
}

async function startThenSignalNpm(signal: NodeJS.Signals, target: 'npm' | 'group', dynamo: Dynamo): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), `mailservice-npm-start-${signal}-`));
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    // PORT=0: every listener on a free port, so this runs beside any other stack.
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DATA_IN_MEMORY: '1', LOG_LEVEL: 'silent', ...dynamoEnv(dynamo) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: every process it starts is found by pgid
  });
  const pgid = npm.pid!;
  // Every stdio pipe of npm's group closed (what the processes wrote before they ended has all been read).
  const closed = new Promise<void>((resolve) => npm.once('close', () => resolve()));
  let output = '';
  npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitUntil(
      "npm start's ready line",
      () => /Ready in \d+ ms/.test(output),
      90_000,
      () => output,
    );
    const stack = JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')) as {
      api_url: string;
      smtp: string;
      mx: string;
      webhook_inbox_url: string;
      endpoints: Record<'dynamodb' | 'sqs' | 'sesv2' | 'scheduler' | 'dns', string>;
    };
    // With the suite's DynamoDB Local, stack.json names the stack's own proxy to it, which goes with the stack.
    const addresses = [stack.api_url, stack.smtp, stack.mx, stack.webhook_inbox_url, ...Object.values(stack.endpoints)];
    const before = processGroup(pgid);
    expect(before.some((p) => /\bjava\b/.test(p.command))).toBe(dynamo === 'java');
    // With V8's young generation kept small, as package.json's start script says (docs/benchmarks.md: ~46 MB less idle).
    expect(before.some((p) => /node --max-semi-space-size=4 \S*localstack\/launch\.cjs/.test(p.command))).toBe(true);
    // No tsx CLI between npm and the stack: it passes a signal on and SIGKILLs the stack when the stack has
    // not acknowledged it within 60 ms (the group's SIGINT then found a busy stack killed, not stopped).
    expect(before.filter((p) => p.command.includes('tsx/dist/cli'))).toEqual([]);
    for (const address of addresses) expect(await portOpen(address)).toBe(true);
    // Who serves each address before the signal (in the group or not): the stack's own listeners.
    const servedBy = new Map(addresses.map((address) => [address, listenersOn(portOf(address))]));
    for (const [address, owners] of servedBy) expect({ address, seen: owners.length > 0 }).toEqual({ address, seen: true });

    // npm's own process only, or the whole group as a terminal's Ctrl-C does.
    process.kill(target === 'npm' ? npm.pid! : -pgid, signal);

    await waitUntil(
      `no process of npm start's group left after ${signal} to ${target}`,
      () => processGroup(pgid).length === 0,
      30_000,
      () => JSON.stringify(processGroup(pgid)),
    );
    // Still served: an address whose listener before the signal (the same process: pid and start time) still
    // listens on it. Any other listener is another stack of the suite (or the shared stack, which opens
    // listeners all along) that the kernel gave the freed port: matching by process start time could not
    // tell those apart, since a process started long ago may bind the port after the signal.
    const open: string[] = [];
    for (const [address, before] of servedBy) {
      const now = listenersOn(portOf(address));
      const stillOurs = now.filter((owner) => before.some((was) => was.pid === owner.pid && was.startTicks === owner.startTicks));
      if (stillOurs.length > 0) open.push(`${address} (${JSON.stringify(stillOurs)})`);
    }
    expect(open).toEqual([]);
    if (target === 'group') {
      // The last lines may still be in the pipe when the last process is gone: read to its end first.
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      // Stopped in order: the relay task by the local cloud (not on its own), DynamoDB Local after the
      // functions that use it (no pass failing against it on the way out).
      expect(output).toMatch(/SMTP relay task \(pid \d+\) exited with code 0\n/);
      expect(output).not.toMatch(/unexpectedly|pass failed|ECONNREFUSED/);
    }
  } finally {
    try {
      process.kill(-pgid, 'SIGKILL'); // whatever a failed run left
    } catch {
      // none left
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('npm start stops the whole stack when its own process (or its group) is signalled', () => {
  test.concurrent('SIGTERM to npm', () => startThenSignalNpm('SIGTERM', 'npm', 'shared'), 150_000);
  test.concurrent('SIGINT to npm', () => startThenSignalNpm('SIGINT', 'npm', 'shared'), 150_000);
  // npm gets no chance to pass anything on: the stack sees npm gone (localstack/cloud/stack/launcher-watch.ts), and
  // stops its Java too.
  test.concurrent('SIGKILL to npm', () => startThenSignalNpm('SIGKILL', 'npm', 'java'), 150_000);
  test.concurrent('SIGINT to the whole group (Ctrl-C in a terminal)', () => startThenSignalNpm('SIGINT', 'group', 'java'), 150_000);
});
