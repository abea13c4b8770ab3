/**
 * The MX listener with in-memory fakes behind its ports: the order that makes accepted mail safe (the raw
 * message stored, then queued, then 250), 451 when either write fails (nothing half-accepted), one queue
 * message per receiving account with only its recipients, SIZE after DATA, and the memory budget. SPF,
 * DKIM and DMARC are checked once per message through the given resolver (a fake DNS here) and carried
 * by every queue message; a resolver that never answers delays the 250 by the checks' limit only. The
 * whole path against the local cloud is in test/integration/inbound*.test.ts.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { writeLocalCa } from '#localstack/cloud/tls/local-tls';
import { dkimTxtValue, generateDkimKey, type DkimKey } from '#shared/lib/dkim/keys';
import { signDkim } from '#shared/lib/dkim/sign';
import type { InboundMessage } from '#shared/domain/messages';
import { createMxServer, UNCLAIMED_RAW_BOUND_MS, type MxServer } from '#shared/doors/mx/mx-server';
import type { ReceivingDomain } from '#shared/usecases/inbound/receiving-domains';
import { temporaryDir } from '../../support/temporary-dirs';

process.env.LOG_LEVEL = 'silent';

const DOMAINS: Record<string, ReceivingDomain> = {
  'inbound.a.test': { account_id: 'acc_a', domain_id: 'dom_a', tenant_id: null, tenant: null, name: 'inbound.a.test', routes: [] },
  'inbound.b.test': {
    account_id: 'acc_b',
    domain_id: 'dom_b',
    tenant_id: 'ten_b',
    tenant: 'customer-b',
    name: 'inbound.b.test',
    routes: [
      { match: { recipient: 'closed' }, action: { type: 'refuse', message: 'This mailbox is closed; write to help@.' } },
      { match: { recipient: '*', sender: '@blocked.example' }, action: { type: 'refuse' } },
      { match: { recipient: 'help' }, action: { type: 'store' } },
    ],
  },
};

interface Fakes {
  steps: string[];
  stored: Map<string, Buffer>;
  queued: InboundMessage[];
  failPut: boolean;
  failQueue: boolean;
  /** TXT records by name; any other name is NXDOMAIN. */
  txt: Record<string, string>;
  /** Every DNS question asked, `name/TYPE`. */
  asked: string[];
  /** The resolver never answers (a DNS outage that times out nowhere). */
  dnsHangs: boolean;
  /** Each raw message's marker (shared/adapters/store/inbound-raw-markers.ts), whether it is still due for deletion, and when. */
  markers: Map<string, Marker>;
  /** The queue's call never answers (a listener stuck there). */
  queueHangs: boolean;
  /** The marker's write fails (the table refuses). */
  failBegin: boolean;
}

type Marker = { status: string; indexed: boolean; dueAt?: number };
type StartOptions = { maxMessageBytes?: number; maxBufferedBytes?: number; authenticationTimeoutMs?: number };
const NOW = Date.parse('2026-11-23T10:00:00.000Z');

function start(fakes: Fakes, options: StartOptions = {}) {
  return async (tls: { key: Buffer; cert: Buffer }): Promise<{ mx: MxServer; port: number }> => {
    const mx = createMxServer(
      { tls, hostname: 'mx.test', closeTimeoutMs: 200, ...options },
      {
        receivingDomains: { forAddress: async (address: string) => DOMAINS[address.split('@')[1]!] ?? null },
        blobs: {
          put: async (key: string, body: string | Buffer) => {
            fakes.steps.push(`put ${key}`);
            if (fakes.failPut) throw new Error('S3 down');
            fakes.stored.set(key, Buffer.from(body));
          },
          delete: async (key: string) => {
            fakes.steps.push(`delete ${key}`);
            fakes.stored.delete(key);
          },
        },
        inboundRawMarkers: {
          begin: async (key: string, _now: Date, dueAt: number) => {
            fakes.steps.push('begin');
            if (fakes.failBegin) throw new Error('DynamoDB down');
            fakes.markers.set(key, { status: 'pending', indexed: true, dueAt });
          },
          discard: async (key: string) => move(fakes, key, ['pending'], { status: 'discarded', indexed: true }),
          discardUnstored: async (key: string) => move(fakes, key, ['pending'], { status: 'discarded', indexed: false }),
          forget: async (key: string) => void move(fakes, key, ['discarded'], { status: 'discarded', indexed: false }),
        },
        inboundQueue: {
          enqueueAll: async (messages: InboundMessage[]) => {
            fakes.steps.push(`queue ${messages.length}`);
            if (fakes.queueHangs) await new Promise(() => undefined);
            if (fakes.failQueue) throw new Error('SQS down');
            fakes.queued.push(...messages);
          },
        },
        clock: { now: () => new Date(NOW) },
        dns: {
          resolve: (name: string, rrtype: string) => {
            fakes.asked.push(`${name}/${rrtype}`);
            if (fakes.dnsHangs) return new Promise(() => undefined);
            const value = rrtype === 'TXT' ? fakes.txt[name.toLowerCase()] : undefined;
            if (value === undefined) return Promise.reject(Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' }));
            return Promise.resolve([[value]]);
          },
        },
      },
    );
    return { mx, port: await mx.listen(0, '127.0.0.1') };
  };
}

const newFakes = (): Fakes => ({
  steps: [],
  stored: new Map(),
  queued: [],
  failPut: false,
  failQueue: false,
  txt: {},
  asked: [],
  dnsHangs: false,
  markers: new Map(),
  queueHangs: false,
  failBegin: false,
});

/** A marker's conditional change: only from one of `from`. */
function move(fakes: Fakes, key: string, from: string[], to: Marker): boolean {
  if (!from.includes(fakes.markers.get(key)?.status ?? '')) return false;
  fakes.markers.set(key, to);
  return true;
}
type SmtpError = { responseCode?: number; response?: string };

describe('the MX listener', () => {
  let tls: { key: Buffer; cert: Buffer };
  let ca: Buffer;
  const running: MxServer[] = [];

  beforeAll(async () => {
    const files = await writeLocalCa(temporaryDir('mx-unit-'), { commonName: 'mx unit CA', validDays: 1 });
    ca = readFileSync(files.caFile);
    tls = { key: readFileSync(files.keyFile), cert: readFileSync(files.certFile) };
  });
  afterAll(async () => {
    await Promise.all(running.map((mx) => mx.close()));
  });

  async function listener(fakes: Fakes, options?: StartOptions) {
    const { mx, port } = await start(fakes, options)(tls);
    running.push(mx);
    const send = (mail: SendMailOptions) =>
      nodemailer
        .createTransport({ host: '127.0.0.1', port, secure: false, tls: { ca, servername: 'localhost' }, name: 'sender.test' })
        .sendMail(mail);
    return send;
  }

  /** A plain SMTP session on `port`, one command at a time: each answer's first line. */
  async function rawSession(port: number) {
    const socket = net.connect(port, '127.0.0.1');
    let buffer = '';
    let waiting: ((line: string) => void) | null = null;
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      // A whole reply: its last line has a space after the code.
      const lines = buffer.split('\r\n');
      const last = lines.findIndex((line) => /^\d{3} /.test(line));
      if (last >= 0 && waiting) {
        const reply = lines[last]!;
        buffer = lines.slice(last + 1).join('\r\n');
        const done = waiting;
        waiting = null;
        done(reply);
      }
    });
    const reply = () => new Promise<string>((resolve) => (waiting = resolve));
    const greeting = reply();
    await greeting;
    const command = (line: string) => {
      const answer = reply();
      socket.write(`${line}\r\n`);
      return answer;
    };
    return { socket, command, reply };
  }

  it('writes the pending marker as DATA starts, while the message arrives, and stores once the final dot came', async () => {
    const fakes = newFakes();
    const { mx, port } = await start(fakes)(tls);
    running.push(mx);
    const session = await rawSession(port);
    expect(await session.command('EHLO sender.test')).toMatch(/^250 /);
    expect(await session.command('MAIL FROM:<x@example.org>')).toMatch(/^250 /);
    expect(await session.command('RCPT TO:<one@inbound.a.test>')).toMatch(/^250 /);
    expect(fakes.steps).toEqual([]);
    expect(await session.command('DATA')).toMatch(/^354 /);
    session.socket.write('Subject: slow\r\n\r\nhalf of it');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The marker is written before the message has all arrived; nothing is stored yet.
    expect(fakes.steps).toEqual(['begin']);
    expect([...fakes.markers.values()]).toEqual([{ status: 'pending', indexed: true, dueAt: NOW + UNCLAIMED_RAW_BOUND_MS }]);
    const answer = session.reply();
    session.socket.write(' and the rest\r\n.\r\n');
    expect(await answer).toMatch(/^250 2\.0\.0 Ok: queued as inb_/);
    expect(fakes.steps).toEqual(['begin', expect.stringMatching(/^put inbound\/raw\//), 'queue 1']);
    session.socket.destroy();
  });

  it('gives the marker back when the connection drops before the final dot: nothing stored, nothing due', async () => {
    const fakes = newFakes();
    const { mx, port } = await start(fakes)(tls);
    running.push(mx);
    const session = await rawSession(port);
    await session.command('EHLO sender.test');
    await session.command('MAIL FROM:<x@example.org>');
    await session.command('RCPT TO:<one@inbound.a.test>');
    expect(await session.command('DATA')).toMatch(/^354 /);
    session.socket.write('Subject: cut\r\n\r\nnever finished');
    await new Promise((resolve) => setTimeout(resolve, 100));
    session.socket.destroy();
    const deadline = Date.now() + 5000;
    while ([...fakes.markers.values()][0]?.status !== 'discarded' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect([...fakes.markers.values()]).toEqual([{ status: 'discarded', indexed: false }]);
    expect(fakes.steps).toEqual(['begin']);
  });

  it('stores the raw message, then queues one message per receiving account with only its recipients, then answers 250', async () => {
    const fakes = newFakes();
    const send = await listener(fakes);
    const info = await send({
      envelope: { from: 'x@example.org', to: ['one@inbound.a.test', 'two@inbound.b.test', 'three@inbound.a.test'] },
      raw: 'Subject: hi\r\n\r\nhello\r\n',
    });
    expect(fakes.steps).toEqual(['begin', expect.stringMatching(/^put inbound\/raw\/[0-9A-Z]{26}\.eml$/), 'queue 2']);
    const ids = fakes.queued.map((message) => message.email_id);
    expect(info.response).toBe(`250 2.0.0 Ok: queued as ${ids.join(' ')}`);
    const rawKey = fakes.steps[1]!.slice('put '.length);
    expect(fakes.queued).toEqual([
      expect.objectContaining({
        account_id: 'acc_a',
        domain_id: 'dom_a',
        tenant: null,
        rcpt_to: ['one@inbound.a.test', 'three@inbound.a.test'],
        raw_key: rawKey,
        mail_from: 'x@example.org',
        helo: 'sender.test',
        tls: true,
        remote_address: '127.0.0.1',
      }),
      expect.objectContaining({
        account_id: 'acc_b',
        domain_id: 'dom_b',
        tenant_id: 'ten_b',
        tenant: 'customer-b',
        rcpt_to: ['two@inbound.b.test'],
        raw_key: rawKey,
      }),
    ]);
    const raw = fakes.stored.get(rawKey)!.toString();
    expect(raw).toMatch(/^Received: from sender\.test \(\[127\.0\.0\.1\]\)\r\n\tby mx\.test with ESMTPS id [0-9A-Z]{26};\r\n/);
    expect(raw).toContain('Subject: hi\r\n\r\nhello\r\n');
    expect(fakes.queued[0]!.size).toBe(fakes.stored.get(rawKey)!.length);
    // Pending, due only past the longest a queue message lives (a worker's claim takes it out of the index):
    // the reconciler deletes it only when the queue never took it. No write after the queue's call.
    expect(fakes.markers.get(rawKey)).toEqual({ status: 'pending', indexed: true, dueAt: NOW + UNCLAIMED_RAW_BOUND_MS });
    expect(UNCLAIMED_RAW_BOUND_MS).toBeGreaterThan(14 * 24 * 3600_000);
    // Checked once for the message (one SPF lookup, not one per account); both queue messages carry the result.
    expect(fakes.asked.filter((question) => question === 'example.org/TXT')).toHaveLength(1);
    const none = { spf: { result: 'none', domain: 'example.org' }, dkim: [], dmarc: { result: 'none', domain: null, policy: null } };
    expect(fakes.queued.map((message) => message.authentication)).toEqual([none, none]);
  });

  it('checks SPF (the client address, MAIL FROM), DKIM and DMARC through its resolver and queues the verdicts', async () => {
    const key: DkimKey = await generateDkimKey();
    const fakes = newFakes();
    fakes.txt = {
      'sender.test': 'v=spf1 ip4:127.0.0.1 -all',
      's1._domainkey.sender.test': dkimTxtValue(key.publicKeyBase64),
      '_dmarc.sender.test': 'v=DMARC1; p=reject',
      'forged.test': 'v=spf1 ip4:192.0.2.1 -all',
      '_dmarc.forged.test': 'v=DMARC1; p=quarantine',
    };
    const send = await listener(fakes);
    const raw = await signDkim({
      raw: Buffer.from('From: Alice <alice@sender.test>\r\nTo: one@inbound.a.test\r\nSubject: signed\r\n\r\nhello\r\n'),
      domain: 'sender.test',
      selector: 's1',
      privateKeyPem: key.privateKeyPem,
    });
    await send({ envelope: { from: 'alice@sender.test', to: ['one@inbound.a.test', 'two@inbound.b.test'] }, raw });
    expect(fakes.queued.map((message) => message.authentication)).toEqual(
      [0, 1].map(() => ({
        spf: { result: 'pass', domain: 'sender.test' },
        dkim: [{ result: 'pass', domain: 'sender.test', selector: 's1', aligned: true }],
        dmarc: { result: 'pass', domain: 'sender.test', policy: 'reject' },
      })),
    );
    // Our Received field in front does not break the signature: the checks read the stored bytes.
    expect(fakes.asked.filter((question) => question === 's1._domainkey.sender.test/TXT')).toHaveLength(1);

    await send({
      envelope: { from: 'bob@forged.test', to: ['one@inbound.a.test'] },
      raw: 'From: Bob <bob@forged.test>\r\nSubject: forged\r\n\r\nhello\r\n',
    });
    expect(fakes.queued[2]!.authentication).toEqual({
      spf: { result: 'fail', domain: 'forged.test' },
      dkim: [],
      dmarc: { result: 'fail', domain: 'forged.test', policy: 'quarantine' },
    });
  });

  it('answers 250 once the checks give up when DNS never answers, queuing the message as unchecked (temperror)', async () => {
    const fakes = newFakes();
    fakes.dnsHangs = true;
    const send = await listener(fakes, { authenticationTimeoutMs: 300 });
    const started = Date.now();
    const info = await send({ from: 'x@example.org', to: 'one@inbound.a.test', subject: 's', text: 't' });
    const elapsed = Date.now() - started;
    expect(info.response).toMatch(/^250 2\.0\.0 Ok: queued as inb_/);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
    expect(fakes.asked.length).toBeGreaterThan(0);
    expect(fakes.steps).toEqual(['begin', expect.stringMatching(/^put /), 'queue 1']);
    expect(fakes.queued[0]!.authentication).toEqual({
      spf: { result: 'temperror', domain: null },
      dkim: [],
      dmarc: { result: 'temperror', domain: null, policy: null },
    });
  });

  it('answers 451 and queues nothing when the raw message cannot be stored', async () => {
    const fakes = newFakes();
    fakes.failPut = true;
    const send = await listener(fakes);
    const error = await send({ from: 'x@example.org', to: 'one@inbound.a.test', subject: 's', text: 't' }).catch((e: SmtpError) => e);
    expect(error).toMatchObject({
      responseCode: 451,
      response: expect.stringMatching(/^451 4\.3\.0 Temporary local problem storing the message/),
    });
    const rawKey = fakes.steps[1]!.slice('put '.length);
    expect(fakes.steps).toEqual(['begin', `put ${rawKey}`, `delete ${rawKey}`]);
    expect(fakes.markers.get(rawKey)).toEqual({ status: 'discarded', indexed: false });
  });

  it('answers 451 when the stored message cannot be queued (the sender tries again), and deletes what it stored', async () => {
    const fakes = newFakes();
    fakes.failQueue = true;
    const send = await listener(fakes);
    const error = await send({ from: 'x@example.org', to: 'one@inbound.a.test', subject: 's', text: 't' }).catch((e: SmtpError) => e);
    expect(error).toMatchObject({ responseCode: 451 });
    const rawKey = fakes.steps[1]!.slice('put '.length);
    expect(fakes.steps).toEqual(['begin', `put ${rawKey}`, 'queue 1', `delete ${rawKey}`]);
    expect(fakes.stored.size).toBe(0);
    // Discarded: a queue message that got through anyway is dropped by the worker.
    expect(fakes.markers.get(rawKey)).toEqual({ status: 'discarded', indexed: false });
  });

  it('answers 451 when the marker cannot be written, and deletes at once the object stored beside it', async () => {
    const fakes = newFakes();
    fakes.failBegin = true;
    const send = await listener(fakes);
    const error = await send({ from: 'x@example.org', to: 'one@inbound.a.test', subject: 's', text: 't' }).catch((e: SmtpError) => e);
    expect(error).toMatchObject({ responseCode: 451 });
    const rawKey = fakes.steps[1]!.slice('put '.length);
    // Nothing queued: no worker can name it, so no marker is needed to delete it.
    expect(fakes.steps).toEqual(['begin', `put ${rawKey}`, `delete ${rawKey}`]);
    expect(fakes.stored.size).toBe(0);
    expect(fakes.queued).toHaveLength(0);
  });

  it('refuses at RCPT TO what it does not receive for, and after DATA a message over SIZE, storing nothing', async () => {
    const fakes = newFakes();
    const send = await listener(fakes, { maxMessageBytes: 2000 });
    const refused = await send({ from: 'x@example.org', to: 'one@elsewhere.test', subject: 's', text: 't' }).catch((e: SmtpError) => e);
    expect(refused).toMatchObject({ responseCode: 550, response: expect.stringMatching(/^550 5\.7\.1 Relay access denied/) });
    // nodemailer does not declare SIZE=, so the limit is met after the final dot.
    const large = await send({ from: 'x@example.org', to: 'one@inbound.a.test', subject: 's', text: 'x'.repeat(5000) }).catch(
      (e: SmtpError) => e,
    );
    expect(large).toMatchObject({ responseCode: 552, response: expect.stringMatching(/^552 5\.3\.4 Message too large/) });
    // The marker written as DATA started is given back: nothing stored, nothing for the reconciler.
    expect(fakes.steps).toEqual(['begin']);
    expect([...fakes.markers.values()]).toEqual([{ status: 'discarded', indexed: false }]);
  });

  it('refuses at RCPT TO a recipient a refuse route of its domain matches, with the route’s message, and takes the others', async () => {
    const fakes = newFakes();
    const send = await listener(fakes);
    const closed = await send({ from: 'x@example.org', to: 'closed+1@inbound.b.test', subject: 's', text: 't' }).catch((e: SmtpError) => e);
    expect(closed).toMatchObject({ responseCode: 550, response: '550 5.7.1 This mailbox is closed; write to help@.' });
    const blocked = await send({ from: 'x@mail.blocked.example', to: 'help@inbound.b.test', subject: 's', text: 't' }).catch(
      (e: SmtpError) => e,
    );
    expect(blocked).toMatchObject({ responseCode: 550, response: '550 5.7.1 Mail to this address is not accepted.' });
    expect(fakes.queued).toEqual([]);
    // A store route is the worker's: the listener takes the mail as any other.
    await send({ from: 'x@example.org', to: ['help@inbound.b.test', 'closed@inbound.b.test'], subject: 's', text: 't' }).catch(
      () => undefined,
    );
    await send({ from: 'x@example.org', to: 'help@inbound.b.test', subject: 's', text: 't' });
    expect(fakes.queued.map((message) => message.rcpt_to)).toEqual([['help@inbound.b.test'], ['help@inbound.b.test']]);
  });

  it('answers 451 4.3.1 beyond the memory budget, then takes messages again once it is given back', async () => {
    const fakes = newFakes();
    const send = await listener(fakes, { maxBufferedBytes: 4096 });
    const busy = await send({ from: 'x@example.org', to: 'one@inbound.a.test', subject: 's', text: 'x'.repeat(10_000) }).catch(
      (e: SmtpError) => e,
    );
    expect(busy).toMatchObject({ responseCode: 451, response: expect.stringMatching(/^451 4\.3\.1 Busy/) });
    const info = await send({ from: 'x@example.org', to: 'one@inbound.a.test', subject: 's', text: 'small' });
    expect(info.response).toMatch(/^250 /);
  });
});
