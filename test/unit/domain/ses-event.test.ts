import { MalformedSesEvent, parseSesEvent } from '../../../shared/domain/ses/ses-event';

const mail = { messageId: 'ses-1', timestamp: '2026-01-01T00:00:00.000Z', tags: { email_id: ['msg_1'], account_id: ['acc_1'] } };
const sns = (event: object) => JSON.stringify({ Type: 'Notification', Message: JSON.stringify(event) });

describe('parseSesEvent', () => {
  it('reads email and account ids from the tags, through the SNS envelope', () => {
    const parsed = parseSesEvent(sns({ eventType: 'Send', mail, send: {} }));
    expect(parsed).toMatchObject({ emailId: 'msg_1', accountId: 'acc_1', providerMessageId: 'ses-1' });
    expect(parsed.outcome).toEqual({ event: 'sent', status: 'sent', at: mail.timestamp, fields: { sent_at: mail.timestamp } });
  });

  it('accepts raw (non-enveloped) events', () => {
    expect(parseSesEvent(JSON.stringify({ eventType: 'Delivery', mail, delivery: { timestamp: '2026-01-01T00:00:01.000Z' } })).outcome).toMatchObject({
      event: 'delivered',
      status: 'delivered',
      fields: { delivered_at: '2026-01-01T00:00:01.000Z' },
    });
  });

  it('maps a permanent bounce to bounced with the diagnostic, a transient one to delivery_delayed', () => {
    const bounce = { bounceType: 'Permanent', bounceSubType: 'General', timestamp: '2026-01-01T00:00:02.000Z', bouncedRecipients: [{ emailAddress: 'x', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }] };
    expect(parseSesEvent(sns({ eventType: 'Bounce', mail, bounce })).outcome).toMatchObject({
      event: 'bounced',
      status: 'bounced',
      fields: { bounce_reason: 'smtp; 550 5.1.1 user unknown', bounce_type: 'hard', bounced_at: bounce.timestamp },
    });
    expect(parseSesEvent(sns({ eventType: 'Bounce', mail, bounce: { ...bounce, bounceType: 'Transient' } })).outcome).toMatchObject({ event: 'delivery_delayed' });
  });

  it('maps complaints without a status change, and ignores opens until tracking exists', () => {
    const complaint = parseSesEvent(sns({ eventType: 'Complaint', mail, complaint: { timestamp: '2026-01-01T00:00:03.000Z' } })).outcome!;
    expect(complaint.event).toBe('complained');
    expect(complaint.status).toBeUndefined();
    expect(parseSesEvent(sns({ eventType: 'Open', mail, open: {} })).outcome).toBeNull();
  });

  it('reports foreign messages (no email_id tag) with a null email id', () => {
    expect(parseSesEvent(sns({ eventType: 'Send', mail: { messageId: 'x', tags: {} } })).emailId).toBeNull();
  });

  it.each(['not json', JSON.stringify({ Type: 'Notification', Message: '{bad' }), JSON.stringify([1]), JSON.stringify({ eventType: 'Send' })])('throws MalformedSesEvent for %j', (body) => {
    expect(() => parseSesEvent(body)).toThrow(MalformedSesEvent);
  });
});
