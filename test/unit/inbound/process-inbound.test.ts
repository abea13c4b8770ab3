/**
 * The inbound worker's use case (shared/usecases/inbound/process-inbound.ts) with in-memory fakes for its
 * ports and the real parser: one record per message however often it is processed, one event id, the
 * parts under inbound/<id>/, the derived fields (stripped text, plus address, spam verdict) wired, and
 * the authentication taken from the queue message (the MX listener checked it; none in a message queued
 * before it did: unchecked).
 */
import type { AuthenticationChecks } from '#shared/domain/inbound/authentication';
import type { ReceivedEmail } from '#shared/domain/inbound/received-email';
import { newId } from '#shared/domain/ids';
import { inboundMessageSchema, type InboundMessage, type ServiceEventMessage } from '#shared/domain/messages';
import { emailEventId } from '#shared/domain/webhooks/event';
import { parseInbound } from '#shared/adapters/received-mail/parse-message';
import type { CreateReceivedOutcome } from '#shared/adapters/store/received-emails';
import { processInbound, receiveQueuedInbound, type ProcessInboundDeps } from '#shared/usecases/inbound/process-inbound';
import { crlf, normalMessage, oversizedPartHeaderMessage, PDF_BYTES, PNG_BYTES } from './messages';
import { CONTENT_OBJECT_MAX_BODY_BYTES } from '#shared/domain/inbound/content-keys';

process.env.LOG_LEVEL = 'silent';

const NOW = new Date('2024-01-02T03:05:00Z');
const RECEIVED_AT = '2024-01-02T03:04:30.000Z';
const RAW_KEY = 'inbound/raw/raw_1.eml';
/** The account's retention class prefix the fake repository answers. */
const PREFIX = 'retention/30d/';

type Checks = AuthenticationChecks;
const PASSING: Checks = {
  spf: { result: 'pass', domain: 'example.com' },
  dkim: [{ result: 'pass', domain: 'example.com', selector: 's1', aligned: true }],
  dmarc: { result: 'pass', domain: 'example.com', policy: 'reject' },
};

function fakes(raw: Buffer) {
  const objects = new Map<string, { body: Buffer; contentType: string }>([[RAW_KEY, { body: raw, contentType: 'message/rfc822' }]]);
  const records = new Map<string, ReceivedEmail>();
  const creates: ReceivedEmail[] = [];
  /** The addresses each create was told the message names (its address references). */
  const named: (readonly string[])[] = [];
  const published: ServiceEventMessage[] = [];
  const deps: ProcessInboundDeps = {
    blobs: {
      async get(key) {
        const object = objects.get(key);
        if (!object) throw new Error(`NoSuchKey ${key}`);
        return object.body;
      },
      async put(key, body, contentType) {
        objects.set(key, { body: Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'), contentType });
      },
    },
    receivedEmails: {
      async create(email, names): Promise<CreateReceivedOutcome> {
        creates.push(email);
        named.push(names ?? []);
        if (records.has(email.id)) return 'exists';
        records.set(email.id, email);
        return 'created';
      },
      async get(accountId, id) {
        const record = records.get(id);
        return record && record.account_id === accountId ? record : null;
      },
      async objectsPrefix() {
        return PREFIX;
      },
    },
    events: {
      async publish(events) {
        published.push(...events);
      },
    },
    clock: { now: () => NOW },
    parseInbound,
  };
  return { deps, objects, records, creates, published, named };
}

function inboundMessage(overrides: Partial<InboundMessage> = {}): InboundMessage {
  return {
    email_id: newId('inb', Date.parse(RECEIVED_AT)),
    account_id: 'acc_1',
    domain_id: 'dom_1',
    tenant_id: 'ten_1',
    tenant: 'customer-1',
    raw_key: RAW_KEY,
    size: 4321,
    received_at: RECEIVED_AT,
    mail_from: 'bounce@example.com',
    rcpt_to: ['other@inbound.example.com', 'support+1234@inbound.example.com'],
    remote_address: '192.0.2.10',
    helo: 'mail.example.com',
    tls: true,
    authentication: PASSING,
    ...overrides,
  };
}

describe('processInbound', () => {
  it('names everyone the whole message names for an erasure (From, Reply-To, envelope sender, To, Cc beyond what the record keeps), never the addresses it was received at', async () => {
    const cc = Array.from({ length: 120 }, (_, i) => `Person ${i} <P${i}@example.org>`).join(', ');
    const raw = crlf(
      `From: Jane <jane@example.com>\nReply-To: visitor@example.net\nTo: other@inbound.example.com, friend@example.net\nCc: ${cc}\nSubject: hi\nMessage-ID: <m1@example.com>\n\nhello\n`,
    );
    const { deps, creates, named } = fakes(raw);
    await processInbound(deps, inboundMessage());
    expect(creates[0]!.cc).toHaveLength(100);
    expect(creates[0]!.truncated).toBe(true);
    expect(named[0]).toEqual([
      'jane@example.com',
      'visitor@example.net',
      'bounce@example.com',
      'friend@example.net',
      ...Array.from({ length: 120 }, (_, i) => `p${i}@example.org`),
    ]);
  });

  it('makes one record when the same message is processed twice, and publishes the same event id both times', async () => {
    const { deps, records, creates, published } = fakes(normalMessage);
    const message = inboundMessage();

    const first = await processInbound(deps, message);
    const second = await processInbound(deps, message);

    expect(first.outcome).toBe('created');
    expect(second.outcome).toBe('exists');
    expect(creates).toHaveLength(2);
    expect(creates[0]!.id).toBe(message.email_id);
    expect(creates[1]!.id).toBe(message.email_id);
    expect(records.size).toBe(1);

    expect(published).toHaveLength(2);
    expect(published[0]!.id).toBe(published[1]!.id);
    expect(published[0]!.id).toBe(emailEventId(RECEIVED_AT, message.email_id, 'email.received'));
    expect(published[0]).toMatchObject({ type: 'email.received', account_id: 'acc_1', tenant: 'customer-1', created_at: RECEIVED_AT });
    expect(published[1]!.data).toEqual(published[0]!.data);
  });

  it('publishes the stored record when processed again, even if this run reads the message otherwise', async () => {
    const { deps, published } = fakes(normalMessage);
    const message = inboundMessage();
    await processInbound(deps, message);
    const again = await processInbound(deps, {
      ...message,
      authentication: { spf: { result: 'temperror', domain: null }, dkim: [], dmarc: { result: 'temperror', domain: null, policy: null } },
    });
    expect(again.outcome).toBe('exists');
    expect(again.email.authentication.spf.result).toBe('pass');
    expect(published[1]!.data).toEqual(published[0]!.data);
  });

  it('gives different messages different event ids', async () => {
    const { deps, published } = fakes(normalMessage);
    await processInbound(deps, inboundMessage());
    await processInbound(deps, inboundMessage());
    expect(published[0]!.id).not.toBe(published[1]!.id);
  });

  it('stores small bodies and the headers as one object under <retention prefix>inbound/<id>/, attachments as att_<n> in message order', async () => {
    const { deps, objects } = fakes(normalMessage);
    const message = inboundMessage();
    const { email } = await processInbound(deps, message);
    const id = message.email_id;

    // One PUT for bodies and headers (not three): the record says so.
    expect(email.content_object).toBe(true);
    const stored = objects.get(`${PREFIX}inbound/${id}/content.json`)!;
    expect(stored.contentType).toBe('application/json');
    const content = JSON.parse(stored.body.toString()) as { html: string; text: string; headers: { name: string; value: string }[] };
    expect(content.text).toContain('Thanks, received.');
    expect(content.html).toContain('<p>Thanks, received.</p>');
    expect(content.headers[0]).toEqual({ name: 'From', value: 'Alice Example <alice@example.com>' });
    for (const part of ['body.txt', 'body.html', 'headers.json']) expect(objects.has(`${PREFIX}inbound/${id}/${part}`)).toBe(false);

    expect(email.attachments.map((attachment) => attachment.id)).toEqual(['att_1', 'att_2']);
    expect(email.attachment_count).toBe(2);
    for (const attachment of email.attachments) {
      const stored = objects.get(`${PREFIX}inbound/${id}/attachments/${attachment.id}`)!;
      expect(stored).toBeDefined();
      expect(stored.contentType).toBe(attachment.content_type);
      expect(stored.body.length).toBe(attachment.size);
    }
    const byName = Object.fromEntries(email.attachments.map((attachment) => [attachment.filename, attachment]));
    expect(objects.get(`${PREFIX}inbound/${id}/attachments/${byName['invoice.pdf']!.id}`)!.body.equals(PDF_BYTES)).toBe(true);
    expect(objects.get(`${PREFIX}inbound/${id}/attachments/${byName['logo.png']!.id}`)!.body.equals(PNG_BYTES)).toBe(true);
    // The record keeps metadata only, not the bytes.
    expect(email.attachments[0]).not.toHaveProperty('content');
    expect([...objects.keys()].filter((key) => key !== RAW_KEY).every((key) => key.startsWith(`${PREFIX}inbound/${id}/`))).toBe(true);
    // The raw message is left where it was (its rule expires it), the account's copy beside the parts, named by the record.
    expect(objects.has(RAW_KEY)).toBe(true);
    expect(objects.get(`${PREFIX}inbound/${id}/message.eml`)!.body.equals(objects.get(RAW_KEY)!.body)).toBe(true);
    expect(email.raw_key).toBe(`${PREFIX}inbound/${id}/message.eml`);
    expect(email.objects_prefix).toBe(PREFIX);
  });

  it('records the parsed fields, the envelope and the derived fields (stripped text, plus address, auto-submitted)', async () => {
    const { deps, records, published } = fakes(normalMessage);
    const message = inboundMessage();
    const { email } = await processInbound(deps, message);

    expect(records.get(message.email_id)).toEqual(email);
    expect(email).toMatchObject({
      id: message.email_id,
      account_id: 'acc_1',
      domain_id: 'dom_1',
      tenant_id: 'ten_1',
      tenant: 'customer-1',
      status: 'received',
      from: 'Alice Example <alice@example.com>',
      cc: ['Carol <carol@example.org>'],
      reply_to: ['replies@example.com'],
      subject: 'Re: Your order ✓',
      message_id: '<reply-1@example.com>',
      in_reply_to: '<orig-1@service.example>',
      references: ['<root-0@service.example>', '<orig-1@service.example>'],
      date: '2024-01-02T03:04:05.000Z',
      mail_from: 'bounce@example.com',
      rcpt_to: message.rcpt_to,
      stripped_text: 'Thanks, received.',
      plus_address: '1234',
      auto_submitted: null,
      spam_status: 'not_spam',
      parse_error: null,
      truncated: false,
      tls: true,
      remote_address: '192.0.2.10',
      helo: 'mail.example.com',
      raw_key: `${PREFIX}inbound/${message.email_id}/message.eml`,
      objects_prefix: PREFIX,
      shared_raw_key: RAW_KEY,
      size: 4321,
      received_at: RECEIVED_AT,
      created_at: NOW.toISOString(),
    });
    expect(email.html_bytes).toBeGreaterThan(0);
    expect(email.text_bytes).toBeGreaterThan(0);
    expect(email.authentication).toEqual({ ...PASSING, spam_reasons: [] });
    expect(published[0]!.data).toMatchObject({
      email_id: message.email_id,
      stripped_text: 'Thanks, received.',
      plus_address: '1234',
      spam_status: 'not_spam',
      authentication: { ...PASSING, spam_reasons: [] },
    });
  });

  it('takes the plus address from the envelope recipients, null when none has one', async () => {
    const { deps } = fakes(normalMessage);
    const { email } = await processInbound(deps, inboundMessage({ rcpt_to: ['other@inbound.example.com'] }));
    expect(email.plus_address).toBeNull();
  });

  it('records the spam verdict and its reasons, and publishes them', async () => {
    const failing: Checks = {
      spf: { result: 'fail', domain: 'example.com' },
      dkim: [],
      dmarc: { result: 'fail', domain: 'example.com', policy: 'reject' },
    };
    const { deps, published } = fakes(normalMessage);
    const { email } = await processInbound(deps, inboundMessage({ authentication: failing }));
    expect(email.spam_status).toBe('spam');
    expect(email.authentication.spam_reasons).toHaveLength(2);
    expect(email.authentication.spf).toEqual(failing.spf);
    expect(published[0]!.data).toMatchObject({ spam_status: 'spam', authentication: email.authentication });
  });

  it('records a message queued before the MX listener checked (no authentication) as unchecked, and says so in the log', async () => {
    const { deps, records, published } = fakes(normalMessage);
    const { authentication: _, ...fields } = inboundMessage();
    // As SQS delivers it: the JSON of a message enqueued by the previous listener, parsed by the worker's schema.
    const old = inboundMessageSchema.parse(JSON.parse(JSON.stringify(fields)));
    expect(old).not.toHaveProperty('authentication');
    const lines: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    process.env.LOG_LEVEL = 'info';
    try {
      const { outcome, email } = await processInbound(deps, old);
      expect(outcome).toBe('created');
      expect(records.get(old.email_id)).toBe(email);
      expect(email.authentication).toEqual({
        spf: { result: 'temperror', domain: null },
        dkim: [],
        dmarc: { result: 'temperror', domain: null, policy: null },
        spam_reasons: [],
      });
      expect(email.spam_status).toBe('not_spam');
      expect(published[0]!.data).toMatchObject({ authentication: email.authentication });
    } finally {
      process.env.LOG_LEVEL = 'silent';
      log.mockRestore();
    }
    const warnings = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 'warn');
    expect(warnings).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/without authentication results/),
        email_id: old.email_id,
        account_id: 'acc_1',
      }),
    ]);
  });

  it("takes a message with the listener's checks through the queue schema unchanged", () => {
    const message = inboundMessage({
      authentication: {
        spf: { result: 'softfail', domain: 'example.com' },
        dkim: [{ result: 'fail', domain: 'x.test', selector: 's', aligned: false }],
        dmarc: { result: 'none', domain: null, policy: null },
      },
    });
    expect(inboundMessageSchema.parse(JSON.parse(JSON.stringify(message)))).toEqual(message);
    expect(
      inboundMessageSchema.safeParse({ ...message, authentication: { ...message.authentication!, spf: { result: 'maybe', domain: null } } })
        .success,
    ).toBe(false);
  });

  it('marks a bounce (null sender) auto-generated', async () => {
    const { deps } = fakes(normalMessage);
    const { email } = await processInbound(deps, inboundMessage({ mail_from: '' }));
    expect(email.auto_submitted).toBe('auto-generated');
  });

  it('still records (and publishes) a message that cannot be parsed whole, with parse_error and its top header', async () => {
    const raw = oversizedPartHeaderMessage();
    const { deps, records, published, objects } = fakes(raw);
    const message = inboundMessage();
    const { outcome, email } = await processInbound(deps, message);

    expect(outcome).toBe('created');
    expect(records.get(message.email_id)).toBe(email);
    expect(email.parse_error).toEqual(expect.any(String));
    expect(email.subject).toBe('Broken but readable ✓');
    expect(email.from).toBe('Mallory <mallory@example.net>');
    expect(email.auto_submitted).toBe('auto-generated');
    expect(email.stripped_text).toBeNull();
    expect(email.attachments).toEqual([]);
    expect(email.html_bytes).toBeNull();
    expect(email.text_bytes).toBeNull();
    expect(objects.has(`${PREFIX}inbound/${message.email_id}/body.txt`)).toBe(false);
    expect(JSON.parse(objects.get(`${PREFIX}inbound/${message.email_id}/content.json`)!.body.toString())).toMatchObject({
      html: null,
      text: null,
      headers: expect.arrayContaining([{ name: 'Message-ID', value: '<broken-1@example.net>' }]),
    });
    expect(published).toHaveLength(1);
  });

  it('stores bodies over CONTENT_OBJECT_MAX_BODY_BYTES each as an object of its own (the API may link to them), and the headers beside them', async () => {
    const big = 'x'.repeat(CONTENT_OBJECT_MAX_BODY_BYTES);
    const { deps, objects } = fakes(
      crlf(
        'From: Alice <alice@example.com>',
        'To: support@inbound.example.com',
        'Subject: long',
        'Content-Type: text/plain; charset=utf-8',
        '',
        big,
        'end',
      ),
    );
    const message = inboundMessage();
    const { email } = await processInbound(deps, message);
    const id = message.email_id;
    expect(email.content_object).toBeUndefined();
    expect(email.text_bytes).toBeGreaterThan(CONTENT_OBJECT_MAX_BODY_BYTES);
    expect(objects.get(`${PREFIX}inbound/${id}/body.txt`)!.contentType).toBe('text/plain; charset=utf-8');
    expect(JSON.parse(objects.get(`${PREFIX}inbound/${id}/headers.json`)!.body.toString())[0]).toEqual({
      name: 'From',
      value: 'Alice <alice@example.com>',
    });
    expect(objects.has(`${PREFIX}inbound/${id}/content.json`)).toBe(false);
  });

  it('still records when the parser port itself reports a failure', async () => {
    const { deps, records } = fakes(crlf('Subject: x', '', 'y'));
    deps.parseInbound = async () => ({
      from: '',
      to: [],
      cc: [],
      reply_to: [],
      subject: '',
      message_id: null,
      in_reply_to: null,
      references: [],
      date: null,
      html: null,
      text: null,
      headers: [],
      attachments: [],
      attachment_count: 0,
      parse_error: 'broken MIME',
    });
    const message = inboundMessage();
    const { email } = await processInbound(deps, message);
    expect(records.get(message.email_id)).toMatchObject({
      parse_error: 'broken MIME',
      subject: '',
      stripped_text: null,
      plus_address: '1234',
    });
    expect(email.attachment_count).toBe(0);
  });

  it('throws (for the queue to retry) when the raw message cannot be read, recording and publishing nothing', async () => {
    const { deps, records, published } = fakes(normalMessage);
    await expect(processInbound(deps, inboundMessage({ raw_key: 'inbound/raw/missing.eml' }))).rejects.toThrow('NoSuchKey');
    expect(records.size).toBe(0);
    expect(published).toHaveLength(0);
  });

  it('does not publish when the record cannot be written', async () => {
    const { deps, published } = fakes(normalMessage);
    deps.receivedEmails = { ...deps.receivedEmails, create: async () => Promise.reject(new Error('table unavailable')) };
    await expect(processInbound(deps, inboundMessage())).rejects.toThrow('table unavailable');
    expect(published).toHaveLength(0);
  });
});

describe('receiveQueuedInbound (the worker: claim, then process)', () => {
  /** Markers as the repository keeps them: a claim wins unless the marker was discarded. */
  const markers = (initial: Record<string, string>) => {
    const status = new Map(Object.entries(initial));
    return {
      status,
      claim: async (rawKey: string) => {
        if (status.get(rawKey) === 'discarded') return 'discarded' as const;
        status.set(rawKey, 'claimed');
        return 'claimed' as const;
      },
    };
  };

  /** No domain has a DMARC report address here: the reports step reads nothing else. */
  const noReports = {
    dmarcAddresses: { domainsFor: async () => [] },
    dmarcReports: { save: async () => Promise.reject(new Error('not expected')) },
    domains: { get: async () => null },
  };

  it('claims the raw message before recording it (the reconciler then leaves it alone)', async () => {
    const { deps, records } = fakes(normalMessage);
    const inboundRawMarkers = markers({ [RAW_KEY]: 'queued' });
    expect(await receiveQueuedInbound({ ...deps, ...noReports, inboundRawMarkers }, inboundMessage())).toBe('created');
    expect(inboundRawMarkers.status.get(RAW_KEY)).toBe('claimed');
    expect(records.size).toBe(1);
  });

  it('drops a message whose raw message the listener discarded (it answered no 250): nothing read, recorded or published', async () => {
    const { deps, records, published } = fakes(normalMessage);
    let reads = 0;
    const blobs = {
      ...deps.blobs,
      get: async (key: string) => {
        reads++;
        return deps.blobs.get(key);
      },
    };
    expect(
      await receiveQueuedInbound(
        { ...deps, ...noReports, blobs, inboundRawMarkers: markers({ [RAW_KEY]: 'discarded' }) },
        inboundMessage(),
      ),
    ).toBe('dropped');
    expect({ reads, records: records.size, published: published.length }).toEqual({ reads: 0, records: 0, published: 0 });
  });
});
