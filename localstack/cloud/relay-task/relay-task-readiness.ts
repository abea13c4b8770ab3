/**
 * When the relay task is ready: on AWS the load balancer sends it traffic once its target group's health
 * check passes, a TCP connection to each container port (the template's target groups, infra/constructs/
 * smtp-relay.ts; https://docs.aws.amazon.com/elasticloadbalancing/latest/network/target-group-health-checks.html).
 * The local cloud checks a little more (our choice): the listener answers the SMTP greeting (220), then
 * the check says QUIT, so the task logs no broken connection. Seen from outside the process, as the load
 * balancer sees it, whatever the task logs (LOG_LEVEL=silent included).
 */
import { connect } from 'node:net';

/** True once `host:port` greets with 220; false when nothing listens there (yet) or it answers otherwise. */
export function greets(host: string, port: number, timeoutMs = 5000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let received = '';
    let settled = false;
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners('data');
      if (ok) socket.end('QUIT\r\n');
      else socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (/\r?\n/.test(received)) done(/^220[ -]/.test(received));
    });
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}
