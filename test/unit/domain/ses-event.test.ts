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

  it('maps a permanent bounce to bounced/hard, suppressing the address; a transient bounce to delivery_delayed', () => {
    const general = parseSesEvent(
      sns({ eventType: 'Bounce', mail, bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [{ emailAddress: 'g@y.io', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }] } }),
    );
    expect(general.outcome).toMatchObject({ event: 'bounced', status: 'bounced', fields: { bounce_type: 'hard' } });
    expect(general.addressRefusal).toBeUndefined();
    expect(general.suppress).toEqual({ reason: 'bounce', emails: ['g@y.io'] });
  });

  it('maps an address refused while delivering (NoEmail, suppressed) to failed/hard, suppressing it; a transient bounce to delivery_delayed', () => {
    const bounce = {
      bounceType: 'Permanent',
      bounceSubType: 'NoEmail',
      timestamp: '2026-01-01T00:00:02.000Z',
      bouncedRecipients: [{ emailAddress: 'x@y.io', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
    };
    const parsed = parseSesEvent(sns({ eventType: 'Bounce', mail, bounce }));
    expect(parsed.outcome).toMatchObject({
      event: 'failed',
      status: 'failed',
      fields: { bounce_reason: 'smtp; 550 5.1.1 user unknown', bounce_type: 'hard', bounced_at: bounce.timestamp },
    });
    expect(parsed.addressRefusal).toBe(true);
    expect(parsed.suppress).toEqual({ reason: 'bounce', emails: ['x@y.io'] });
    const transient = parseSesEvent(sns({ eventType: 'Bounce', mail, bounce: { ...bounce, bounceType: 'Transient' } }));
    expect(transient.outcome).toMatchObject({ event: 'delivery_delayed' });
    expect(transient.suppress).toBeUndefined();
  });

  it('maps a block (5.7.x, content rejected, spam policy) to bounced/block without suppressing', () => {
    for (const recipient of [
      { emailAddress: 'x@y.io', status: '5.7.1', diagnosticCode: 'smtp; 550 5.7.1 message refused' },
      { emailAddress: 'x@y.io', status: '5.0.0', diagnosticCode: 'smtp; 554 blocked by spam policy' },
    ]) {
      const parsed = parseSesEvent(sns({ eventType: 'Bounce', mail, bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [recipient] } }));
      expect(parsed.outcome).toMatchObject({ event: 'bounced', status: 'bounced', fields: { bounce_type: 'block' } });
      expect(parsed.suppress).toBeUndefined();
    }
    const content = parseSesEvent(sns({ eventType: 'Bounce', mail, bounce: { bounceType: 'Permanent', bounceSubType: 'ContentRejected', bouncedRecipients: [{ emailAddress: 'x@y.io' }] } }));
    expect(content.outcome?.fields.bounce_type).toBe('block');
  });

  it('maps complaints without a status change, suppressing the complainers, and ignores opens until tracking exists', () => {
    const parsed = parseSesEvent(sns({ eventType: 'Complaint', mail, complaint: { timestamp: '2026-01-01T00:00:03.000Z', complainedRecipients: [{ emailAddress: 'c@y.io' }] } }));
    const complaint = parsed.outcome!;
    expect(complaint.event).toBe('complained');
    expect(complaint.status).toBeUndefined();
    expect(parsed.suppress).toEqual({ reason: 'complaint', emails: ['c@y.io'] });
    expect(parseSesEvent(sns({ eventType: 'Open', mail, open: {} })).outcome).toBeNull();
  });

  it('reports foreign messages (no email_id tag) with a null email id', () => {
    expect(parseSesEvent(sns({ eventType: 'Send', mail: { messageId: 'x', tags: {} } })).emailId).toBeNull();
  });

  it.each(['not json', JSON.stringify({ Type: 'Notification', Message: '{bad' }), JSON.stringify([1]), JSON.stringify({ eventType: 'Send' })])('throws MalformedSesEvent for %j', (body) => {
    expect(() => parseSesEvent(body)).toThrow(MalformedSesEvent);
  });
});
