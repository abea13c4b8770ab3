/** The send worker's use case with in-memory fakes: the calls it makes per email, and its failure paths. */
import { deliverEmail, type DeliverEmailDeps } from '#shared/usecases/delivery/deliver-email';
import { MailerError } from '#shared/ports/mail';
import type { Email } from '#shared/domain/emails/email';
import type { ServiceEvent } from '#shared/domain/webhooks/event';

const NOW = new Date('2026-11-22T10:00:00.000Z');

function email(from: string): Email {
  return {
    id: 'msg_1',
    account_id: 'acc_1',
    from,
    to: ['r@example.com'],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: 's',
    status: 'queued',
    last_event: 'queued',
    bounce_reason: null,
    bounce_type: null,
    tags: [],
    headers: {},
    scheduled_at: null,
    cancelled_at: null,
    sent_at: null,
    delivered_at: null,
    bounced_at: null,
    created_at: NOW.toISOString(),
    tenant: null,
    provider_message_id: null,
  };
}

function fakes(
  options: {
    from?: string;
    signing?: 'key' | 'not_verified';
    mailerError?: MailerError;
    claim?: 'leased' | 'settled' | 'settled-failed' | 'not_sendable';
    /** The email's tenant and the tenant owning the sending domain. */
    emailTenant?: string;
    domainTenant?: string;
    /** SES refuses sends naming a tenant with this error. */
    tenantError?: MailerError;
    /** Addresses on a suppression list at the firing (scheduled emails). */
    suppressed?: string[];
    scheduled?: boolean;
    /** The account's pause at the firing (its reason). */
    accountPaused?: string;
    /** The email's body: composed from these, or a relayed raw message. */
    body?: { text?: string; html?: string };
    raw?: Buffer;
    /** The sending domain's active link domain (its facts' linkHost). */
    linkHost?: string;
    /** The email asks for managed unsubscribe (its links signed). */
    unsubscribe?: boolean;
  } = {},
) {
  const calls: string[] = [];
  const events: ServiceEvent[] = [];
  const sent: { tenantName?: string }[] = [];
  /** The messages handed to SES. */
  const raws: Buffer[] = [];
  const stored = {
    ...email(options.from ?? 'a@acme.test'),
    tenant_id: options.emailTenant ?? null,
    ...(options.unsubscribe ? { unsubscribe: true } : {}),
    ...(options.scheduled ? { scheduled_at: NOW.toISOString(), status: 'scheduled' as const } : {}),
  };
  const deps: DeliverEmailDeps = {
    emails: {
      claimForSend: async () => {
        calls.push('claim');
        if (options.claim === 'settled')
          return { kind: 'settled', email: { ...stored, status: 'delivered', sent_at: NOW.toISOString(), provider_message_id: 'ses-0' } };
        if (options.claim === 'settled-failed')
          return { kind: 'settled', email: { ...stored, status: 'failed', last_event: 'failed', bounce_reason: 'refused' } };
        if (options.claim) return { kind: options.claim };
        const body = { inline: options.body ?? { text: 'hi' } };
        return {
          kind: 'claimed',
          stored: { email: stored, body, internals: {}, ...(options.raw ? { mime: { blobKey: 'raw/msg_1' } } : {}) } as never,
        };
      },
      recordSent: async (_id, pid, at) => {
        calls.push(`recordSent ${pid}`);
        return { ...stored, status: 'sent', sent_at: at };
      },
      applyOutcome: async (_id, _acc, outcome) => {
        calls.push(`applyOutcome ${outcome.event}`);
        return { kind: 'moved', email: { ...stored, status: 'failed' } };
      },
      releaseLease: async () => void calls.push('releaseLease'),
    },
    events: { publish: async (batch) => void events.push(...batch) },
    accounts: {
      get: async () => {
        calls.push('account');
        return (options.accountPaused ? { status: 'paused', paused_reason: options.accountPaused } : { status: 'active' }) as never;
      },
    },
    tenants: { find: async () => null },
    suppressions: {
      findSuppressed: async (_acc, _tenant, emails) => {
        calls.push('suppressions');
        return emails.filter((address) => options.suppressed?.includes(address) ?? false);
      },
    },
    sendingDomains: {
      of: async () => {
        calls.push('facts');
        return options.signing === 'not_verified'
          ? { kind: 'not_verified' }
          : {
              kind: 'verified',
              domainId: 'dom_1',
              selector: 's1',
              tenantId: options.domainTenant ?? null,
              openTracking: false,
              clickTracking: false,
              requireTls: false,
              linkHost: options.linkHost ?? null,
            };
      },
    },
    linkSigning: {
      urls: async (linkHost) => {
        calls.push(linkHost ? `links ${linkHost}` : 'links');
        return { unsubscribeUrl: () => 'https://l.test/u', openUrl: () => 'https://l.test/o', clickUrl: () => 'https://l.test/c' };
      },
    },
    sandboxDomain: 'sandbox.test',
    blobs: { put: async () => undefined, get: async () => options.raw ?? Buffer.alloc(0) } as never,
    mailer: {
      send: async (message) => {
        calls.push(`ses ${message.raw.toString('latin1').startsWith('DKIM-Signature:') ? 'signed' : 'unsigned'}`);
        sent.push({ tenantName: message.tenantName });
        raws.push(message.raw);
        if (options.mailerError) throw options.mailerError;
        if (message.tenantName && options.tenantError) throw options.tenantError;
        return { providerMessageId: 'ses-1' };
      },
    },
    clock: { now: () => NOW },
    leaseMs: 1000,
  };
  return { deps, calls, events, sent, raws };
}

describe('deliverEmail', () => {
  it('claims, sends unsigned (SES signs with the domain key: BYODKIM) and records sent in one write, publishing email.sent', async () => {
    const { deps, calls, events } = fakes();
    expect(await deliverEmail(deps, 'msg_1')).toBe('sent');
    expect(calls).toEqual(['claim', 'facts', 'ses unsigned', 'recordSent ses-1']);
    expect(events.map((e) => e.type)).toEqual(['email.sent']);
  });

  it("signs an email's links under its domain's active link domain, else under LINKS_BASE_URL", async () => {
    const own = fakes({ unsubscribe: true, linkHost: 'links.acme.test' });
    await deliverEmail(own.deps, 'msg_1');
    expect(own.calls).toEqual(['claim', 'facts', 'links links.acme.test', 'ses unsigned', 'recordSent ses-1']);
    const fallback = fakes({ unsubscribe: true });
    await deliverEmail(fallback.deps, 'msg_1');
    expect(fallback.calls).toEqual(['claim', 'facts', 'links', 'ses unsigned', 'recordSent ses-1']);
  });

  it('hands SES CRLF line endings only: a composed body with LF and CR line breaks, and a relayed message with bare LFs', async () => {
    const composed = fakes({ body: { text: 'one\ntwo\rthree\r\n', html: '<p>a</p>\n<p>b</p>\r' } });
    expect(await deliverEmail(composed.deps, 'msg_1')).toBe('sent');
    const relayed = fakes({ raw: Buffer.from('From: a@acme.test\nTo: r@example.com\r\nSubject: s\n\nline one\nline two\rline three\r\n') });
    expect(await deliverEmail(relayed.deps, 'msg_1')).toBe('sent');
    expect(composed.raws).toHaveLength(1);
    for (const raw of [...composed.raws, ...relayed.raws]) {
      const text = raw.toString('latin1');
      expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    }
    expect(relayed.raws[0]!.toString('latin1')).toMatch(
      /\r\nFrom: a@acme\.test\r\nTo: r@example\.com\r\nSubject: s\r\n\r\nline one\r\nline two\r\nline three\r\n$/,
    );
  });

  it('reads the suppression lists for a scheduled email only: an immediate one was checked when accepted', async () => {
    const immediate = fakes();
    await deliverEmail(immediate.deps, 'msg_1');
    expect(immediate.calls).not.toContain('suppressions');
    const scheduled = fakes({ scheduled: true });
    expect(await deliverEmail(scheduled.deps, 'msg_1')).toBe('sent');
    expect(scheduled.calls).toEqual(['claim', 'account', 'suppressions', 'facts', 'ses unsigned', 'recordSent ses-1']);
  });

  it('fails a scheduled email whose account was paused before its time (the reputation brake), without calling SES', async () => {
    const { deps, calls, events } = fakes({ scheduled: true, accountPaused: 'Reputation brake: bounce rate 6%' });
    const outcomes: unknown[] = [];
    const applyOutcome = deps.emails.applyOutcome;
    deps.emails.applyOutcome = (id, account, outcome) => {
      outcomes.push(outcome);
      return applyOutcome(id, account, outcome);
    };
    expect(await deliverEmail(deps, 'msg_1')).toBe('failed');
    expect(calls).toEqual(['claim', 'account', 'applyOutcome failed']);
    expect(events.map((event) => event.type)).toEqual(['email.failed']);
    expect(outcomes).toEqual([
      expect.objectContaining({
        event: 'failed',
        fields: { bounce_reason: 'Not sent: the account was paused before the scheduled time: Reputation brake: bounce rate 6%' },
      }),
    ]);
  });

  it('fails a scheduled email whose recipient was suppressed before its time, without calling SES', async () => {
    const { deps, calls, events } = fakes({ scheduled: true, suppressed: ['r@example.com'] });
    expect(await deliverEmail(deps, 'msg_1')).toBe('failed');
    expect(calls).toEqual(['claim', 'account', 'suppressions', 'applyOutcome failed']);
    expect(events.map((e) => e.type)).toEqual(['email.failed']);
  });

  it('fails a scheduled tenant email whose domain was given to another tenant before its time', async () => {
    const { deps, calls } = fakes({ scheduled: true, emailTenant: 'ten_A', domainTenant: 'ten_B' });
    deps.tenants = { find: async () => ({ tenant: { id: 'ten_A', external_id: 'a', status: 'active', stream_policy: 'all' } }) as never };
    expect(await deliverEmail(deps, 'msg_1')).toBe('failed');
    expect(calls).toEqual(['claim', 'account', 'suppressions', 'facts', 'applyOutcome failed']);
  });

  it('leaves sandbox mail to the provider to sign (no key lookup)', async () => {
    const { deps, calls } = fakes({ from: 'a@sandbox.test' });
    await deliverEmail(deps, 'msg_1');
    expect(calls).toEqual(['claim', 'ses unsigned', 'recordSent ses-1']);
  });

  it('fails the email for good when its domain is no longer verified, without calling SES', async () => {
    const { deps, calls, events } = fakes({ signing: 'not_verified' });
    expect(await deliverEmail(deps, 'msg_1')).toBe('failed');
    expect(calls).toEqual(['claim', 'facts', 'applyOutcome failed']);
    expect(events.map((e) => e.type)).toEqual(['email.failed']);
  });

  it('gives the lease back and rethrows on a transient provider error (the message is retried)', async () => {
    const { deps, calls } = fakes({ mailerError: new MailerError('throttled', false) });
    await expect(deliverEmail(deps, 'msg_1')).rejects.toThrow('throttled');
    expect(calls).toEqual(['claim', 'facts', 'ses unsigned', 'releaseLease']);
  });

  it('drops a message for an email another attempt holds (the reconciler re-drives it if that attempt died)', async () => {
    const { deps, calls, events } = fakes({ claim: 'leased' });
    expect(await deliverEmail(deps, 'msg_1')).toBe('deferred');
    expect(calls).toEqual(['claim']);
    expect(events).toEqual([]);
  });

  it('publishes email.sent again for a redelivered message of a sent email (the first attempt may have died before publishing), without sending', async () => {
    const { deps, calls, events } = fakes({ claim: 'settled' });
    expect(await deliverEmail(deps, 'msg_1')).toBe('republished');
    expect(calls).toEqual(['claim']);
    expect(events.map((e) => [e.type, e.data.email_id])).toEqual([['email.sent', 'msg_1']]);
    const again = fakes({ claim: 'settled' });
    await deliverEmail(again.deps, 'msg_1');
    // The same event id both times: the router delivers it once.
    expect(again.events[0]!.id).toBe(events[0]!.id);
  });

  it('publishes email.failed again for a redelivered message of an email an attempt failed for good', async () => {
    const { deps, calls, events } = fakes({ claim: 'settled-failed' });
    expect(await deliverEmail(deps, 'msg_1')).toBe('republished');
    expect(calls).toEqual(['claim']);
    expect(events.map((e) => e.type)).toEqual(['email.failed']);
  });

  it('skips a cancelled or unknown email without sending or publishing', async () => {
    const { deps, calls, events } = fakes({ claim: 'not_sendable' });
    expect(await deliverEmail(deps, 'msg_1')).toBe('skipped');
    expect(calls).toEqual(['claim']);
    expect(events).toEqual([]);
  });

  describe('the SES tenant (TenantName)', () => {
    it("names the tenant for a tenant's email from a domain the tenant owns", async () => {
      const { deps, sent } = fakes({ emailTenant: 'ten_A', domainTenant: 'ten_A' });
      expect(await deliverEmail(deps, 'msg_1')).toBe('sent');
      expect(sent).toEqual([{ tenantName: 'ten_A' }]);
    });

    it("names no tenant for a tenant's email from an account-wide domain or the sandbox, nor for an account email", async () => {
      for (const options of [
        { emailTenant: 'ten_A' },
        { emailTenant: 'ten_A', from: 'a@sandbox.test' },
        { domainTenant: 'ten_A' },
        { emailTenant: 'ten_A', domainTenant: 'ten_B' },
      ]) {
        const { deps, sent } = fakes(options);
        expect(await deliverEmail(deps, 'msg_1')).toBe('sent');
        expect(sent).toEqual([{ tenantName: undefined }]);
      }
    });

    it('sends once more without the tenant when SES refuses the tenant context itself', async () => {
      const refusal = new MailerError('SES NotFoundException: tenant', true, { tenantRefused: true });
      const { deps, sent, calls } = fakes({ emailTenant: 'ten_A', domainTenant: 'ten_A', tenantError: refusal });
      expect(await deliverEmail(deps, 'msg_1')).toBe('sent');
      expect(sent).toEqual([{ tenantName: 'ten_A' }, { tenantName: undefined }]);
      expect(calls).toEqual(['claim', 'facts', 'ses unsigned', 'ses unsigned', 'recordSent ses-1']);
    });

    it('does not go around any other refusal of a tenant send (a paused SES tenant stays paused)', async () => {
      const paused = new MailerError('SES SendingPausedException: paused', true);
      const { deps, sent } = fakes({ emailTenant: 'ten_A', domainTenant: 'ten_A', tenantError: paused });
      expect(await deliverEmail(deps, 'msg_1')).toBe('failed');
      expect(sent).toEqual([{ tenantName: 'ten_A' }]);
    });
  });
});
