/** Recording opens and clicks with in-memory fakes: human vs machine hits, first hits, ranks, one event per hit. */
import type { Email } from '#shared/domain/emails/email';
import { EVENT_RANK } from '#shared/domain/emails/outcomes';
import { newId } from '#shared/domain/ids';
import type { ServiceEvent } from '#shared/domain/webhooks/event';
import { trackHit, type Hit, type TrackDeps } from '#shared/usecases/links/track';

const DELIVERED = '2026-11-22T10:00:00.000Z';
const NOW = new Date('2026-11-22T10:05:00.000Z');
const accountId = newId('acc');
const emailId = newId('msg');
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

function fakes(start: Partial<Email> | null = {}) {
  let email: Email | null =
    start === null
      ? null
      : ({
          id: emailId,
          account_id: accountId,
          from: 'a@acme.test',
          to: ['reader@example.com'],
          cc: [],
          subject: 's',
          tags: [],
          status: 'delivered',
          last_event: 'delivered',
          sent_at: '2026-11-22T09:59:59.000Z',
          delivered_at: DELIVERED,
          created_at: '2026-11-22T09:59:58.000Z',
          tenant: null,
          ...start,
        } as Email);
  const writes: { event: string; advance: boolean }[] = [];
  const events: ServiceEvent[] = [];
  const deps: TrackDeps = {
    emails: {
      get: async (id) => (email && id === email.id ? { email, body: { inline: {} }, internals: {} } : null),
      recordEngagement: async (_id, account, event, at, advance) => {
        writes.push({ event, advance });
        if (!email || email.account_id !== account) return null;
        const field = event === 'opened' ? 'opened_at' : 'clicked_at';
        const first = email[field] === undefined;
        const rankOk = EVENT_RANK[email.last_event as keyof typeof EVENT_RANK] < EVENT_RANK[event];
        email = { ...email, [field]: email[field] ?? at, ...(advance && rankOk ? { last_event: event } : {}) };
        return { email, first };
      },
    },
    events: { publish: async (batch) => void events.push(...batch) },
    clock: { now: () => NOW },
  };
  return { deps, writes, events, current: () => email };
}

let hits = 0;
const hit = (overrides: Partial<Hit> = {}): Hit => ({
  id: `req_${++hits}`,
  method: 'GET',
  userAgent: CHROME,
  ip: '203.0.113.9',
  ...overrides,
});
const open = { kind: 'open' as const, link: { accountId, emailId } };
const click = { kind: 'click' as const, link: { accountId, emailId, url: 'https://example.com/pricing?a=1' } };

describe('trackHit', () => {
  it('a human open sets opened_at and last_event once, and each open is its own email.opened', async () => {
    const { deps, writes, events, current } = fakes();
    expect(await trackHit(deps, open, hit())).toEqual({ recorded: true, first: true, machine: false, reasons: [] });
    expect(await trackHit(deps, open, hit())).toEqual({ recorded: true, first: false, machine: false, reasons: [] });
    expect(current()).toMatchObject({ opened_at: NOW.toISOString(), last_event: 'opened', status: 'delivered' });
    // The second open's read already showed `opened`: no last_event advance asked.
    expect(writes).toEqual([
      { event: 'opened', advance: true },
      { event: 'opened', advance: false },
    ]);
    expect(events).toHaveLength(2);
    expect(events[0]!.id).not.toBe(events[1]!.id);
    expect(events[0]).toMatchObject({
      type: 'email.opened',
      account_id: accountId,
      created_at: NOW.toISOString(),
      data: {
        email_id: emailId,
        status: 'delivered',
        opened_at: NOW.toISOString(),
        user_agent: CHROME,
        ip_address: '203.0.113.9',
        machine: false,
        machine_reasons: [],
        first: true,
      },
    });
    expect(events[1]!.data).toMatchObject({ first: false });
  });

  it('a human click sets clicked_at, moves last_event over opened, and names the link', async () => {
    const { deps, events, current } = fakes({ last_event: 'opened', opened_at: DELIVERED });
    await trackHit(deps, click, hit());
    expect(current()).toMatchObject({ clicked_at: NOW.toISOString(), last_event: 'clicked' });
    expect(events[0]).toMatchObject({
      type: 'email.clicked',
      data: { clicked_at: NOW.toISOString(), link: 'https://example.com/pricing?a=1', machine: false, first: true },
    });
    // An open after the click keeps last_event at clicked.
    await trackHit(deps, open, hit());
    expect(current()).toMatchObject({ last_event: 'clicked', opened_at: DELIVERED });
  });

  it("never moves a bounced or complained email's last_event back, but still records the first open", async () => {
    for (const last_event of ['bounced', 'complained', 'failed']) {
      const { deps, writes, current } = fakes({
        last_event,
        status: last_event === 'complained' ? 'delivered' : (last_event as Email['status']),
      });
      await trackHit(deps, open, hit());
      expect(writes).toEqual([{ event: 'opened', advance: false }]);
      expect(current()).toMatchObject({ last_event, opened_at: NOW.toISOString() });
    }
  });

  it('a machine hit (HEAD, scanner, no User-Agent) changes nothing on the email but is one event marked machine', async () => {
    const { deps, writes, events, current } = fakes();
    expect(await trackHit(deps, click, hit({ method: 'HEAD' }))).toEqual({
      recorded: true,
      first: false,
      machine: true,
      reasons: ['head_request'],
    });
    await trackHit(deps, click, hit({ userAgent: 'Barracuda Sentinel' }));
    await trackHit(deps, open, hit({ userAgent: null }));
    expect(writes).toEqual([]);
    expect(current()!.clicked_at).toBeUndefined();
    expect(events.map((event) => [event.type, event.data.machine, event.data.machine_reasons, event.data.first])).toEqual([
      ['email.clicked', true, ['head_request'], false],
      ['email.clicked', true, ['link_scanner'], false],
      ['email.opened', true, ['no_user_agent'], false],
    ]);
    expect(events[2]!.data.user_agent).toBeNull();
  });

  it('a click right after delivery is a machine (gateways follow links on arrival)', async () => {
    const { deps, writes } = fakes({ delivered_at: new Date(NOW.getTime() - 2_000).toISOString() });
    expect(await trackHit(deps, click, hit())).toMatchObject({ machine: true, reasons: ['too_soon_after_delivery'] });
    expect(writes).toEqual([]);
  });

  it('records nothing for an email that no longer exists, or that another account owns', async () => {
    const gone = fakes(null);
    expect(await trackHit(gone.deps, open, hit())).toEqual({ recorded: false });
    expect(gone.events).toEqual([]);
    const other = fakes({ account_id: newId('acc') });
    expect(await trackHit(other.deps, click, hit())).toEqual({ recorded: false });
    expect(other.writes).toEqual([]);
    expect(other.events).toEqual([]);
  });
});
