/**
 * The relay task's process, local-cloud side: started by ./relay-task-process.ts (through
 * its bundle, or ./relay-task-entry.cjs from the sources: ../program-entries.ts) with exactly the container's environment, it installs what the platform around
 * a container provides and the product's entry must not know about, then runs that entry
 * (functions/smtp-relay/main.ts, unchanged) as the container's command would:
 *
 * - IAM (docs/local-cloud/iam.md): the enforcement hook (../iam/iam-setup.ts) on every SDK client the product
 *   builds, and the entry run as the task role, the whole process's principal (clients are built at the
 *   entry's start, in that context: localstack/iam/middleware.ts uses the builder's principal for calls
 *   made from socket events). Denials go to the local cloud's log. LOCAL_IAM is read by the parent.
 * - The clock (shared/adapters/clock.ts): a process cannot share the local cloud's SharedArrayBuffer, so this one
 *   has its own offset cell, set from the parent's `clock` messages (on start and on every change).
 * - A watchdog: the IPC channel closes when the local cloud is gone, however it ended (SIGKILL included);
 *   the task then exits at once, freeing its ports, as ECS stops a task whose cluster is gone. Our choice
 *   (AWS documents no such case): nothing is drained, the emulators it would write to are gone too.
 * - Connection counts for GET /health, by listening port, from Node's `net.server.socket` diagnostics
 *   channel (https://nodejs.org/api/diagnostics_channel.html#built-in-channels): seen from outside the
 *   product's servers, as ECS and the load balancer see the task.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { shareClockOffset } from '#shared/adapters/clock';
import { runAs } from '../../iam/caller';
import { loadFunctionModule } from '../lambda/bundled-functions';
import { enforceIam } from '../iam/iam-setup';
import type { FromRelayTask, ToRelayTask } from './relay-task-protocol';

const send = (message: FromRelayTask) => {
  if (process.connected) process.send!(message);
};

if (!process.send) throw new Error('relay-task-runtime runs as a child of the local cloud (an IPC channel), see ./relay-task-process.ts');

const clockCell = new SharedArrayBuffer(8);
const clockOffset = new Float64Array(clockCell);
shareClockOffset(clockCell);

// The accepted sockets by listening port, counted open while not destroyed: a 'close' listener would be lost,
// since smtp-server removes the raw socket's listeners when STARTTLS wraps it.
const sockets = new Map<number, Set<Socket>>();
subscribe('net.server.socket', (message) => {
  const { socket } = message as { socket: Socket };
  const port = socket.localPort;
  if (port === undefined) return;
  if (!sockets.has(port)) sockets.set(port, new Set());
  sockets.get(port)!.add(socket);
});
function openConnections(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [port, open] of sockets) {
    for (const socket of open) if (socket.destroyed) open.delete(socket);
    counts[String(port)] = open.size;
  }
  return counts;
}

process.on('disconnect', () => process.exit(1));

let started = false;
process.on('message', (message: ToRelayTask) => {
  if (message.type === 'clock') clockOffset[0] = message.offsetMs;
  else if (message.type === 'health') send({ type: 'health', id: message.id, connections: openConnections() });
  else if (message.type === 'start' && !started) {
    started = true;
    clockOffset[0] = message.clockOffsetMs;
    enforceIam(message.iam, (line) => send({ type: 'log', message: line }));
    // The channel no longer keeps the process alive: the entry's servers do (and it exits on SIGTERM).
    process.channel?.unref();
    runAs(message.principal, () => loadFunctionModule(message.entry));
  }
});
