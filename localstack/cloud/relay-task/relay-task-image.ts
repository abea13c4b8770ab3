/**
 * What the relay's image (infra/smtp-relay.Dockerfile) gives its container, read from the Dockerfile the
 * image is built from: its `ENV` variables (part of the container's environment, under the task
 * definition's: https://docs.docker.com/reference/dockerfile/#env) and its `CMD` (what ECS runs when the
 * task definition has no Command: https://docs.aws.amazon.com/AmazonECS/latest/developerguide/task_definition_parameters.html#container_definition_environment).
 *
 * The local cloud has no Docker: it runs the CMD's program on this machine, the bundle (`index.js`, the
 * esbuild output of SMTP_RELAY.entry, infra/build.ts) replaced by its source entry run through tsx
 * (./relay-task-process.ts says why). Only the exec form `CMD ["node", "<file>"]` is understood: anything
 * else (a shell form, another program, arguments) is refused, so a Dockerfile edit the local cloud cannot
 * imitate fails `npm start` instead of running something else than the image would.
 */
import { readFileSync } from 'node:fs';

export interface RelayImage {
  /** The image's ENV, in order (later wins). */
  env: Record<string, string>;
  /** The file the CMD runs with node (the bundle's name, e.g. `index.js`). */
  script: string;
}

/** Logical lines (backslash continuations joined), comments and blank lines dropped. */
function instructions(text: string): string[] {
  return text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** `ENV a=b c="d e"` (the form the Dockerfile uses; the legacy `ENV a b` is refused). */
function envPairs(args: string, file: string): [string, string][] {
  const pairs: [string, string][] = [];
  const pattern = /\s*([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/y;
  let rest = args.trim();
  while (rest !== '') {
    pattern.lastIndex = 0;
    const match = pattern.exec(rest);
    if (!match) throw new Error(`${file}: the local cloud reads ENV only in the form NAME=value, got "ENV ${args}"`);
    const raw = match[2]!;
    pairs.push([match[1]!, raw.startsWith('"') ? (JSON.parse(raw) as string) : raw]);
    rest = rest.slice(match[0].length).trim();
  }
  return pairs;
}

export function readRelayImage(file: string): RelayImage {
  const env: Record<string, string> = {};
  let cmd: unknown;
  for (const line of instructions(readFileSync(file, 'utf8'))) {
    const [, instruction = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (instruction.toUpperCase() === 'ENV') for (const [name, value] of envPairs(args, file)) env[name] = value;
    if (instruction.toUpperCase() === 'CMD') {
      try {
        cmd = JSON.parse(args);
      } catch {
        cmd = args;
      }
    }
  }
  if (!Array.isArray(cmd) || cmd.length !== 2 || cmd[0] !== 'node' || typeof cmd[1] !== 'string') {
    throw new Error(`${file}: the local cloud runs the relay image's CMD only in the form ["node", "<file>"], got ${JSON.stringify(cmd)}`);
  }
  return { env, script: cmd[1] };
}
