/**
 * The ports the local cloud gives the relay task's two listeners. On ECS the container listens on the
 * fixed ports of its environment (SMTP_PORT, MX_PORT) and the load balancer maps the public ports to
 * them; here the local cloud chooses the ports and sets those variables, keeping `npm start`'s rules: 0
 * means a free port; a port asked for explicitly (SMTP_PORT/MX_PORT given to `npm start`) must be had, so
 * it is passed as it is and, taken, fails the task's start with the task's own error; a default port
 * that is taken (another stack, a dev server) gives way to a free one.
 */
import { createServer } from 'node:net';
import { freePort } from '../stack/free-port';

/** Whether `port` can be listened on now (it may be taken by the time the task listens: see retries in ./relay-task-process.ts). */
function available(port: number, host: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

export async function choosePort(
  request: { port: number; explicit: boolean; host: string; name: string; variable: string },
  log: (message: string) => void,
): Promise<number> {
  if (request.port === 0) return freePort(request.host);
  if (request.explicit || (await available(request.port, request.host))) return request.port;
  log(`${request.name}: port ${request.port} is in use, using a free port instead (set ${request.variable} to choose one)`);
  return freePort(request.host);
}
