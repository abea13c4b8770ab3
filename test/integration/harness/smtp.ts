/**
 * SMTP relay fixtures: the running stack's relay address and CA, SMTP credentials, a nodemailer transport,
 * and a raw line-by-line client (net, upgraded with STARTTLS) for protocol edge cases.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import nodemailer from 'nodemailer';
import type { LocalStackInfo } from '#localstack/cloud/cloud';
import { SMTP_USERNAME } from '#shared/domain/smtp-credentials/secret';
import { api, stack, type TestAccount } from './stack';

export function relay(): { host: string; port: number; ca: Buffer } {
  const info = stack().info as LocalStackInfo;
  if (!info.smtp || !info.smtp_ca_file) throw new Error('the stack has no SMTP relay (stack.json smtp, smtp_ca_file)');
  const [host, port] = info.smtp.split(':') as [string, string];
  return { host, port: Number(port), ca: readFileSync(info.smtp_ca_file) };
}

export interface SmtpCredential {
  password: string;
  revoke(): Promise<void>;
}

/** An SMTP credential of the account, created with POST /smtp-credentials (a tenant by external_id or id). */
export async function createSmtpCredential(
  account: TestAccount,
  options: { tenant?: string; allowed_domains?: string[] } = {},
): Promise<SmtpCredential & { id: string }> {
  const created = await api('POST', '/smtp-credentials', { key: account.key, body: { name: 'relay test', ...options } });
  if (created.status !== 201) throw new Error(`POST /smtp-credentials answered ${created.status}: ${created.text}`);
  const { smtp_credential: credential, password } = created.body as { smtp_credential: { id: string }; password: string };
  return {
    id: credential.id,
    password,
    revoke: async () => void (await api('DELETE', `/smtp-credentials/${credential.id}`, { key: account.key })),
  };
}

/** A nodemailer transport to the relay: STARTTLS required, AUTH as mailservice, the relay's CA trusted. */
export function transport(password: string, options: { localAddress?: string } = {}) {
  const { host, port, ca } = relay();
  return nodemailer.createTransport({
    host,
    port,
    secure: false,
    requireTLS: true,
    auth: { user: SMTP_USERNAME, pass: password },
    tls: { ca, servername: 'localhost' },
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  });
}

/** The email id of a relay answer (`250 2.0.0 Ok: queued as msg_...`). */
export function queuedId(response: string): string {
  const id = /queued as (msg_[0-9A-Z]{26})/.exec(response)?.[1];
  if (!id) throw new Error(`not a queued answer: ${response}`);
  return id;
}

export interface Reply {
  code: number;
  /** The text of the last line (with the enhanced status code). */
  text: string;
  lines: string[];
}

/** A loopback address of its own (127.x.y.z), so per-address limits (failed logins) concern this test only. */
export function ownLoopbackAddress(): string {
  const byte = () => 2 + Math.floor(Math.random() * 250);
  return `127.${byte()}.${byte()}.${byte()}`;
}

/** A raw SMTP client: one command, one reply; the socket is upgraded in place by STARTTLS. */
export class SmtpClient {
  private socket: net.Socket | tls.TLSSocket;
  private buffer = '';
  private readonly replies: Reply[] = [];
  private waiting: ((reply: Reply) => void) | null = null;
  private pending: string[] = [];
  readonly closed: Promise<void>;
  private markClosed!: () => void;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    this.listen(socket);
  }

  /** To the relay, or to `target` (the MX listener). */
  static async connect(
    options: { localAddress?: string; target?: { host: string; port: number } } = {},
  ): Promise<{ client: SmtpClient; greeting: Reply }> {
    const { host, port } = options.target ?? relay();
    const socket = net.connect({ host, port, ...(options.localAddress ? { localAddress: options.localAddress } : {}) });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const client = new SmtpClient(socket);
    return { client, greeting: await client.reply() };
  }

  /** Connected, greeted, EHLO'd, STARTTLS'd and EHLO'd again; authenticated when given a password. */
  static async ready(password?: string, options: { localAddress?: string } = {}): Promise<SmtpClient> {
    const { client } = await SmtpClient.connect(options);
    await client.command('EHLO client.test');
    await client.starttls();
    await client.command('EHLO client.test');
    if (password !== undefined) {
      const reply = await client.login(password);
      if (reply.code !== 235) throw new Error(`AUTH failed: ${reply.text}`);
    }
    return client;
  }

  private listen(socket: net.Socket | tls.TLSSocket): void {
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      for (;;) {
        const end = this.buffer.indexOf('\r\n');
        if (end < 0) break;
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        this.pending.push(line);
        if (/^\d{3} /.test(line) || /^\d{3}$/.test(line)) {
          const reply = { code: Number(line.slice(0, 3)), text: line.slice(4), lines: this.pending };
          this.pending = [];
          if (this.waiting) {
            const wake = this.waiting;
            this.waiting = null;
            wake(reply);
          } else this.replies.push(reply);
        }
      }
    });
    socket.on('close', () => this.markClosed());
    socket.on('error', () => undefined);
  }

  /**
   * The next reply (the connection's close without one is an error). 30 s by default: a relay on a loaded
   * 2-core CI machine once took more than 10 s to answer a command while the suite's heaviest files ran.
   */
  reply(timeoutMs = 30_000): Promise<Reply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no SMTP reply in time')), timeoutMs);
      void this.closed.then(() => setTimeout(() => reject(new Error('connection closed without a reply')), 50));
      this.waiting = (reply) => {
        clearTimeout(timer);
        resolve(reply);
      };
    });
  }

  write(data: string | Buffer): boolean {
    return this.socket.write(data);
  }

  async command(line: string): Promise<Reply> {
    this.write(`${line}\r\n`);
    return this.reply();
  }

  async starttls(): Promise<void> {
    const reply = await this.command('STARTTLS');
    if (reply.code !== 220) throw new Error(`STARTTLS refused: ${reply.code} ${reply.text}`);
    const plain = this.socket as net.Socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('close');
    const secure = tls.connect({ socket: plain, ca: relay().ca, servername: 'localhost' });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    this.socket = secure;
    this.listen(secure);
  }

  async login(password: string, username: string = SMTP_USERNAME): Promise<Reply> {
    return this.command(`AUTH PLAIN ${Buffer.from(`\0${username}\0${password}`).toString('base64')}`);
  }

  /** MAIL FROM, RCPT TO each, DATA; returns each reply (the last: the message's). */
  async transaction(
    from: string,
    to: string[],
    message: string | Buffer,
  ): Promise<{ mail: Reply; rcpt: Reply[]; data?: Reply; done?: Reply }> {
    const mail = await this.command(`MAIL FROM:<${from}>`);
    const rcpt: Reply[] = [];
    for (const address of to) rcpt.push(await this.command(`RCPT TO:<${address}>`));
    if (mail.code !== 250 || !rcpt.some((reply) => reply.code === 250)) return { mail, rcpt };
    const data = await this.command('DATA');
    if (data.code !== 354) return { mail, rcpt, data };
    const body = typeof message === 'string' ? Buffer.from(message) : message;
    this.write(Buffer.concat([dotStuff(body), Buffer.from('.\r\n')]));
    return { mail, rcpt, data, done: await this.reply(30_000) };
  }

  destroy(): void {
    this.socket.destroy();
  }

  async quit(): Promise<void> {
    this.write('QUIT\r\n');
    await Promise.race([this.closed, new Promise((resolve) => setTimeout(resolve, 1000))]);
    this.socket.destroy();
  }
}

/** A message for DATA: CRLF line ends, a leading dot doubled, and a final CRLF. */
export function dotStuff(message: Buffer): Buffer {
  let text = message.toString('latin1').replace(/\r?\n/g, '\r\n');
  if (!text.endsWith('\r\n')) text += '\r\n';
  return Buffer.from(text.replace(/^\./gm, '..'), 'latin1');
}
