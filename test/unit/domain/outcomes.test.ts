import { EVENT_RANK, STATUS_RANK, statusesBefore } from '#shared/domain/emails/outcomes';

describe('delivery outcome ordering', () => {
  it('only moves status forward', () => {
    expect(statusesBefore('sent')).toEqual(['queued']);
    expect(statusesBefore('delivered').sort()).toEqual(['queued', 'sent']);
    expect(statusesBefore('bounced').sort()).toEqual(['delivered', 'queued', 'sent']);
    expect(statusesBefore('bounced')).not.toContain('cancelled');
  });

  it('ranks complaints after delivery and bounces after delivery', () => {
    expect(EVENT_RANK.complained).toBeGreaterThan(EVENT_RANK.delivered);
    expect(EVENT_RANK.bounced).toBeGreaterThan(EVENT_RANK.delivered);
    expect(STATUS_RANK.cancelled).toBeGreaterThan(STATUS_RANK.bounced);
  });
});
