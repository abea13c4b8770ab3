/**
 * What the SMTP benches share (bench:smtp against the relay, bench:inbound against the MX): a pooled
 * nodemailer client, a closed loop of messages through it, the stack's relay certificate (the floors'
 * too: ./durable-floors.ts), and the worker queues' probe.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { QUEUES } from '#infra/definitions';
import { pipelineProbe, type PipelineProbe } from './pipeline-drain';
import { closedLoop, type PhaseResult } from './load';

export type SmtpTransport = ReturnType<typeof nodemailer.createTransport>;

/**
 * `connections` pooled STARTTLS connections to 127.0.0.1:`port`, trusting `ca` (any certificate without one);
 * AUTH as `mailservice` when a password is given (the relay), none otherwise (a sending server to the MX).
 */
export function smtpPool(options: { port: number; ca?: Buffer; connections: number; password?: string; name?: string }): SmtpTransport {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: options.port,
    secure: false,
    requireTLS: true,
    pool: true,
    maxConnections: options.connections,
    maxMessages: Infinity,
    ...(options.password === undefined ? {} : { auth: { user: 'mailservice', pass: options.password } }),
    ...(options.name ? { name: options.name } : {}),
    tls: options.ca ? { ca: options.ca, servername: 'localhost' } : { rejectUnauthorized: false },
  });
}

/** A closed loop of message `n` through `transport` for `durationMs`; each answer's text goes to `answered`. */
export function mailLoop(
  transport: SmtpTransport,
  message: (n: number) => Mail.Options,
  concurrency: number,
  durationMs: number,
  answered?: (response: string) => void,
): Promise<PhaseResult> {
  return closedLoop(concurrency, durationMs, async (n) => {
    const info = await transport.sendMail(message(n));
    answered?.(info.response);
    return { ok: info.response.startsWith('250'), label: info.response.slice(0, 3) };
  });
}

/** The relay task's certificate in a stack's data folder (the MX uses it too): the floor's, so both sides do the same TLS work. */
export function relayCertificate(dataDir: string): { key: string; cert: string } {
  return {
    key: readFileSync(join(dataDir, 'smtp-relay', 'server-key.pem'), 'utf8'),
    cert: readFileSync(join(dataDir, 'smtp-relay', 'server-cert.pem'), 'utf8'),
  };
}

/** The stack's worker queues, seen through a client of the bench's own (`control`; destroy it at the end). */
export function workerQueues(env: Record<string, string | undefined>): { control: SQSClient; pipeline: PipelineProbe } {
  const control = new SQSClient({ region: env.AWS_REGION ?? 'us-east-1', endpoint: env.AWS_ENDPOINT_URL_SQS });
  return {
    control,
    pipeline: pipelineProbe(
      control,
      Object.values(QUEUES)
        .map((queue) => env[queue.envVar])
        .filter((url): url is string => Boolean(url)),
    ),
  };
}
