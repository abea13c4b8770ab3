import { MalformedSesEvent, parseSesEvent } from '#shared/domain/ses/ses-event';

const mail = { messageId: 'ses-1', timestamp: '2026-01-01T00:00:00.000Z', tags: { email_id: ['msg_1'], account_id: ['acc_1'] } };
const sns = (event: object) => JSON.stringify({ Type: 'Notification', Message: JSON.stringify(event) });

describe('parseSesEvent', () => {
  it('reads email and account ids from the tags, through the SNS envelope', () => {
    const parsed = parseSesEvent(sns({ eventType: 'Send', mail, send: {} }));
    expect(parsed).toMatchObject({ emailId: 'msg_1', accountId: 'acc_1', providerMessageId: 'ses-1' });
    expect(parsed.outcome).toEqual({ event: 'sent', status: 'sent', at: mail.timestamp, fields: { sent_at: mail.timestamp } });
  });

  it('says whether the event names every recipient of the message (mail.destination, case aside)', () => {
    const delivery = (destination: unknown, recipients: string[]) =>
      parseSesEvent(
        JSON.stringify({ eventType: 'Delivery', mail: { ...mail, destination }, delivery: { timestamp: mail.timestamp, recipients } }),
      );
    expect(delivery(['A@x.io'], ['a@x.io']).namesEveryRecipient).toBe(true);
    expect(delivery(['a@x.io', 'b@x.io'], ['b@x.io', 'A@X.io']).namesEveryRecipient).toBe(true);
    expect(delivery(['a@x.io', 'b@x.io'], ['a@x.io']).namesEveryRecipient).toBe(false);
    // Without a destination nothing says the others are not pending.
    expect(delivery(undefined, ['a@x.io']).namesEveryRecipient).toBe(false);
    expect(delivery([], ['a@x.io']).namesEveryRecipient).toBe(false);
  });

  it('accepts raw (non-enveloped) events', () => {
    expect(
      parseSesEvent(JSON.stringify({ eventType: 'Delivery', mail, delivery: { timestamp: '2026-01-01T00:00:01.000Z' } })).outcome,
    ).toMatchObject({
      event: 'delivered',
      status: 'delivered',
      fields: { delivered_at: '2026-01-01T00:00:01.000Z' },
    });
  });

  it('maps a permanent bounce to bounced/hard, suppressing the address; its recipients were reached', () => {
    const general = parseSesEvent(
      sns({
        eventType: 'Bounce',
        mail,
        bounce: {
          bounceType: 'Permanent',
          bounceSubType: 'General',
          bouncedRecipients: [{ emailAddress: 'g@y.io', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
        },
      }),
    );
    expect(general.outcome).toMatchObject({ event: 'bounced', status: 'bounced', fields: { bounce_type: 'hard' } });
    expect(general.recipients).toEqual({ result: 'reached', addresses: ['g@y.io'] });
    expect(general.outcome?.fields.bounce_category).toBe('invalid_address');
    // A candidate for the suppression list: the account's suppress_bounce_categories decides (apply-ses-event.ts).
    expect(general.suppress).toEqual({ reason: 'bounce', recipients: [{ email: 'g@y.io', category: 'invalid_address' }] });
  });

  it('maps an address refused while delivering (NoEmail, Suppressed) to failed/hard, refused, suppressing it', () => {
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
    expect(parsed.recipients).toEqual({ result: 'refused', addresses: ['x@y.io'] });
    expect(parsed.suppress).toEqual({ reason: 'bounce', recipients: [{ email: 'x@y.io', category: 'invalid_address' }] });
  });

  it.each(['OnAccountSuppressionList', 'OnTenantSuppressionList'])(
    'reads a %s bounce as not sent: failed/not_sent, unclassified, refused, never suppressed',
    (subType) => {
      const parsed = parseSesEvent(
        sns({
          eventType: 'Bounce',
          mail,
          bounce: {
            bounceType: 'Permanent',
            bounceSubType: subType,
            bouncedRecipients: [{ emailAddress: 's@y.io', status: '5.1.1', diagnosticCode: 'Amazon SES did not send the message' }],
          },
        }),
      );
      expect(parsed.outcome).toMatchObject({
        event: 'failed',
        status: 'failed',
        fields: {
          bounce_type: 'not_sent',
          bounce_category: 'unclassified',
          bounce_reason: expect.stringMatching(/^Not sent: the address is on the SES (account|tenant)'s suppression list/),
        },
      });
      expect(parsed.recipients).toEqual({ result: 'refused', addresses: ['s@y.io'] });
      expect(parsed.suppress).toBeUndefined();
    },
  );

  it.each([
    ['General', 'smtp; 451 4.4.7 Delivery time expired', 'Transient bounce (General): smtp; 451 4.4.7 Delivery time expired', 'technical'],
    ['MailboxFull', 'smtp; 552 5.2.2 Mailbox full', 'Transient bounce (MailboxFull): smtp; 552 5.2.2 Mailbox full', 'mailbox_full'],
    ['MessageTooLarge', '', 'Transient bounce (MessageTooLarge)', 'technical'],
  ])(
    'maps a Transient/%s bounce (final: SES stopped retrying) to bounced/soft with the sub-type in the reason and its category (%#)',
    (subType, diagnosticCode, reason, category) => {
      const parsed = parseSesEvent(
        sns({
          eventType: 'Bounce',
          mail,
          bounce: {
            bounceType: 'Transient',
            bounceSubType: subType,
            bouncedRecipients: [{ emailAddress: 't@y.io', status: '4.0.0', ...(diagnosticCode ? { diagnosticCode } : {}) }],
          },
        }),
      );
      expect(parsed.outcome).toMatchObject({
        event: 'bounced',
        status: 'bounced',
        fields: { bounce_type: 'soft', bounce_reason: reason, bounce_category: category },
      });
      expect(parsed.recipients).toEqual({ result: 'reached', addresses: ['t@y.io'] });
      expect(parsed.suppress).toEqual({ reason: 'bounce', recipients: [{ email: 't@y.io', category }] });
    },
  );

  it('maps an Undetermined bounce to bounced/undetermined, unclassified', () => {
    const parsed = parseSesEvent(
      sns({
        eventType: 'Bounce',
        mail,
        bounce: {
          bounceType: 'Undetermined',
          bounceSubType: 'Undetermined',
          bouncedRecipients: [{ emailAddress: 'u@y.io', status: '5.0.0' }],
        },
      }),
    );
    expect(parsed.outcome).toMatchObject({
      event: 'bounced',
      status: 'bounced',
      fields: { bounce_type: 'undetermined', bounce_reason: 'Undetermined bounce', bounce_category: 'unclassified' },
    });
    expect(parsed.suppress).toEqual({ reason: 'bounce', recipients: [{ email: 'u@y.io', category: 'unclassified' }] });
  });

  it('maps a block (5.7.x, Transient ContentRejected/AttachmentRejected, spam policy) to bounced/block, with a category no default suppresses', () => {
    for (const [recipient, category] of [
      [{ emailAddress: 'x@y.io', status: '5.7.1', diagnosticCode: 'smtp; 550 5.7.1 message refused' }, 'blocked_reputation'],
      [{ emailAddress: 'x@y.io', status: '5.0.0', diagnosticCode: 'smtp; 554 blocked by spam policy' }, 'blocked_content'],
    ] as const) {
      const parsed = parseSesEvent(
        sns({ eventType: 'Bounce', mail, bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [recipient] } }),
      );
      expect(parsed.outcome).toMatchObject({
        event: 'bounced',
        status: 'bounced',
        fields: { bounce_type: 'block', bounce_category: category },
      });
      expect(parsed.suppress).toEqual({ reason: 'bounce', recipients: [{ email: 'x@y.io', category }] });
    }
    // SES publishes content refusals as Transient (the event contents' bounce types).
    for (const subType of ['ContentRejected', 'AttachmentRejected']) {
      const content = parseSesEvent(
        sns({
          eventType: 'Bounce',
          mail,
          bounce: { bounceType: 'Transient', bounceSubType: subType, bouncedRecipients: [{ emailAddress: 'x@y.io', status: '5.3.0' }] },
        }),
      );
      expect(content.outcome).toMatchObject({
        status: 'bounced',
        fields: { bounce_type: 'block', bounce_reason: `Transient bounce (${subType})`, bounce_category: 'blocked_content' },
      });
    }
  });

  it('maps DeliveryDelay to delivery_delayed without a status, and Reject to failed with its reason', () => {
    const delay = parseSesEvent(
      sns({
        eventType: 'DeliveryDelay',
        mail,
        deliveryDelay: { timestamp: '2026-01-01T00:00:04.000Z', delayType: 'MailboxFull', delayedRecipients: [{ emailAddress: 'd@y.io' }] },
      }),
    );
    expect(delay.outcome).toEqual({ event: 'delivery_delayed', at: '2026-01-01T00:00:04.000Z', fields: {} });
    expect(delay.delay).toEqual({ type: 'MailboxFull', category: 'mailbox_full' });
    const reject = parseSesEvent(sns({ eventType: 'Reject', mail, reject: { reason: 'Bad content' } }));
    expect(reject.outcome).toMatchObject({ event: 'failed', status: 'failed', fields: { bounce_reason: 'Rejected by SES: Bad content' } });
  });

  it('reads a Complaint with complaintSubType OnAccountSuppressionList as not sent, not as a complaint', () => {
    const parsed = parseSesEvent(
      sns({
        eventType: 'Complaint',
        mail,
        complaint: {
          complaintSubType: 'OnAccountSuppressionList',
          timestamp: '2026-01-01T00:00:03.000Z',
          complainedRecipients: [{ emailAddress: 'c@y.io' }],
        },
      }),
    );
    expect(parsed.outcome).toMatchObject({ event: 'failed', status: 'failed', fields: { bounce_type: 'not_sent' } });
    expect(parsed.recipients).toEqual({ result: 'refused', addresses: ['c@y.io'] });
    expect(parsed.suppress).toBeUndefined();
  });

  it('lists the recipients of a Delivery as reached', () => {
    expect(parseSesEvent(sns({ eventType: 'Delivery', mail, delivery: { recipients: ['a@y.io'] } })).recipients).toEqual({
      result: 'reached',
      addresses: ['a@y.io'],
    });
  });

  it('maps complaints without a status change, suppressing the complainers, and ignores opens until tracking exists', () => {
    const parsed = parseSesEvent(
      sns({
        eventType: 'Complaint',
        mail,
        complaint: { timestamp: '2026-01-01T00:00:03.000Z', complainedRecipients: [{ emailAddress: 'c@y.io' }] },
      }),
    );
    const complaint = parsed.outcome!;
    expect(complaint.event).toBe('complained');
    expect(complaint.status).toBeUndefined();
    expect(parsed.suppress).toEqual({ reason: 'complaint', emails: ['c@y.io'] });
    expect(parseSesEvent(sns({ eventType: 'Open', mail, open: {} })).outcome).toBeNull();
  });

  it('reports foreign messages (no email_id tag) with a null email id', () => {
    expect(parseSesEvent(sns({ eventType: 'Send', mail: { messageId: 'x', tags: {} } })).emailId).toBeNull();
  });

  it.each([
    'not json',
    JSON.stringify({ Type: 'Notification', Message: '{bad' }),
    JSON.stringify([1]),
    JSON.stringify({ eventType: 'Send' }),
  ])('throws MalformedSesEvent for %j', (body) => {
    expect(() => parseSesEvent(body)).toThrow(MalformedSesEvent);
  });
});
