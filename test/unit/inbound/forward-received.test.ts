/**
 * A received message's forward routes (shared/usecases/inbound/forward-received.ts) with an in-memory send core:
 * one email per route that holds (under an id derived from the received email and the route), as the account
 * acting through the domain (sending only, from that domain only); spam, loops and refusals not forwarded; an
 * infrastructure failure thrown for the queue to retry.
 */
import type { Account } from '#shared/domain/accounts/account';
import type { InboundRoute } from '#shared/domain/domains/inbound-routes';
import { AppError } from '#shared/domain/errors';
import { forwardEmailId, forwardReceived, type ForwardFacts, type ForwardReceivedDeps } from '#shared/usecases/inbound/forward-received';
import { EmailExists } from '#shared/usecases/send/idempotency';

const account = { id: 'acc_1' } as Account;
const route = (recipient: string, action: InboundRoute['action']): InboundRoute => ({ match: { recipient }, action });
const ROUTES: InboundRoute[] = [
  route('billing', { type: 'forward', to: ['ops@example.org', 'cfo@example.org'] }),
  route('quiet', { type: 'store' }),
  route('team-*', { type: 'forward', to: ['team@example.org'] }),
];
const RAW = Buffer.from('From: Zoe <zoe@sender.example>\r\nTo: billing@in.acme.example\r\nSubject: Hi\r\n\r\nhello\r\n');

function facts(overrides: Partial<ForwardFacts> = {}): ForwardFacts {
  return {
    message: {
      email_id: 'inb_1',
      account_id: 'acc_1',
      domain_id: 'dom_1',
      rcpt_to: ['billing@in.acme.example', 'team-a@in.acme.example', 'team-b@in.acme.example', 'quiet@in.acme.example'],
      mail_from: 'zoe@sender.example',
      received_at: '2026-11-28T12:00:00.000Z',
    },
    raw: RAW,
    parsed: { from: 'Zoe <zoe@sender.example>', reply_to: [], subject: 'Hi' },
    routes: ROUTES,
    sender: { domain: 'acme.example', dkimSelector: 'ms1', sealedDkimKey: 'sealed:dom_1' },
    authentication: {
      spf: { result: 'pass', domain: 'sender.example' },
      dkim: [{ result: 'pass', domain: 'sender.example', selector: 'mail', aligned: true }],
      dmarc: { result: 'pass', domain: 'sender.example', policy: 'reject' },
    },
    spamStatus: 'not_spam',
    ...overrides,
  };
}

function world(send?: (emailId: string) => Promise<{ id: string; status: string }>) {
  const sends: { principal: unknown; request: any; raw: string; emailId: string }[] = [];
  const seals: { raw: string; seal: unknown }[] = [];
  const deps: ForwardReceivedDeps = {
    accounts: { get: async (id) => (id === 'acc_1' ? account : null) },
    openDkimKey: async (sealed, domainId) => `PEM of ${sealed} for ${domainId}`,
    arcSeal: async (raw, seal) => {
      seals.push({ raw: raw.toString('utf8'), seal });
      return Buffer.from('ARC-Seal: i=1; fake\r\n');
    },
    authservId: 'mx.mailservice.test',
    sendRaw: async (principal, request, raw, emailId) => {
      sends.push({ principal, request, raw: raw.toString('utf8'), emailId });
      return send ? send(emailId) : { id: emailId, status: 'queued' };
    },
  };
  return { deps, sends, seals };
}

describe('forwardReceived', () => {
  it('sends one email per forward route that holds, From the sending domain, as the domain’s forward routes', async () => {
    const { deps, sends } = world();
    const outcomes = await forwardReceived(deps, facts());
    expect(outcomes).toEqual([
      { route: 0, outcome: 'sent', email_id: forwardEmailId('inb_1', 0, '2026-11-28T12:00:00.000Z') },
      { route: 2, outcome: 'sent', email_id: forwardEmailId('inb_1', 2, '2026-11-28T12:00:00.000Z') },
    ]);
    expect(sends.map((s) => s.request.to)).toEqual([['ops@example.org', 'cfo@example.org'], ['team@example.org']]);
    expect(sends[0]!.request).toEqual({
      from: { email: 'billing@acme.example', name: 'Zoe via billing@in.acme.example' },
      to: ['ops@example.org', 'cfo@example.org'],
      subject: 'Hi',
      reply_to: ['Zoe <zoe@sender.example>'],
    });
    // The route's first recipient names the From; both team- recipients share one email.
    expect(sends[1]!.request.from.email).toBe('team-a@acme.example');
    expect(sends[0]!.principal).toEqual({
      account,
      credential: { kind: 'forward', id: 'dom_1', scopes: ['emails:send'], tenant: null, allowed_domains: ['acme.example'] },
    });
    expect(sends[0]!.raw).toContain('X-Forwarded-To: ops@example.org, cfo@example.org');
    expect(new Set(sends.map((s) => s.emailId)).size).toBe(2);
  });

  it('seals each forward (ARC) with the domain’s DKIM key over the message as sent, the seal before its fields', async () => {
    const { deps, sends, seals } = world();
    await forwardReceived(deps, facts());
    expect(seals).toHaveLength(2);
    expect(seals[0]!.seal).toEqual({
      signingDomain: 'acme.example',
      selector: 'ms1',
      privateKeyPem: 'PEM of sealed:dom_1 for dom_1',
      authResults:
        'mx.mailservice.test; spf=pass smtp.mailfrom=sender.example;\r\n dkim=pass header.d=sender.example header.s=mail;\r\n dmarc=pass header.from=sender.example',
    });
    expect(sends[0]!.raw).toBe(`ARC-Seal: i=1; fake\r\n${seals[0]!.raw}`);
    expect(seals[0]!.raw).toMatch(/^From: /);
  });

  it('sends under the same id when the message is processed again, and takes an email already there as sent', async () => {
    const first = world();
    await forwardReceived(first.deps, facts());
    const again = world(async () => {
      throw new EmailExists('msg_x');
    });
    const outcomes = await forwardReceived(again.deps, facts());
    expect(again.sends.map((s) => s.emailId)).toEqual(first.sends.map((s) => s.emailId));
    expect(outcomes.map((o) => o.outcome)).toEqual(['already_sent', 'already_sent']);
  });

  it('forwards nothing judged spam, nothing for a gone account, and nothing without a forward route that holds', async () => {
    const { deps, sends } = world();
    expect((await forwardReceived(deps, facts({ spamStatus: 'spam' }))).map((o) => o.outcome)).toEqual(['not_forwarded', 'not_forwarded']);
    expect(await forwardReceived(deps, facts({ message: { ...facts().message, account_id: 'acc_gone' } }))).toEqual([
      { route: 0, outcome: 'not_forwarded', reason: 'the account no longer exists' },
      { route: 2, outcome: 'not_forwarded', reason: 'the account no longer exists' },
    ]);
    expect(await forwardReceived(deps, facts({ message: { ...facts().message, rcpt_to: ['quiet@in.acme.example'] } }))).toEqual([]);
    expect(sends).toEqual([]);
  });

  it('takes a refusal of the send core (4xx) as not forwarded, and throws anything else', async () => {
    const refused = world(async () => {
      throw new AppError(403, 'recipient_not_allowed', 'ops@example.org may not be mailed.');
    });
    expect((await forwardReceived(refused.deps, facts()))[0]).toEqual({
      route: 0,
      outcome: 'not_forwarded',
      reason: 'recipient_not_allowed: ops@example.org may not be mailed.',
    });
    const down = world(async () => {
      throw new Error('DynamoDB is down');
    });
    await expect(forwardReceived(down.deps, facts())).rejects.toThrow('DynamoDB is down');
  });

  it('does not forward a loop, and sends the other routes', async () => {
    const looped = Buffer.concat([Buffer.from('X-Forwarded-For: billing@in.acme.example ops@example.org\r\n'), RAW]);
    const { deps, sends } = world();
    const outcomes = await forwardReceived(deps, facts({ raw: looped }));
    expect(outcomes[0]).toEqual({ route: 0, outcome: 'not_forwarded', reason: 'already forwarded by billing@in.acme.example' });
    expect(outcomes[1]).toMatchObject({ route: 2, outcome: 'sent' });
    expect(sends).toHaveLength(1);
  });
});
