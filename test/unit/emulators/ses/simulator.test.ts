import { delayTypeFor, isEarly, LOCAL_EVENTS_DOMAIN, outcomeFor, plannedEvents } from '#localstack/emulators/ses/simulator';

const local = (part: string) => `${part}@${LOCAL_EVENTS_DOMAIN}`;

describe('outcomeFor', () => {
  it.each([
    ['success@simulator.amazonses.com', 'delivery'],
    ['success+label@simulator.amazonses.com', 'delivery'],
    ['SUCCESS@Simulator.AmazonSES.com', 'delivery'],
    ['bounce@simulator.amazonses.com', 'bounce'],
    ['bounce+x-1@simulator.amazonses.com', 'bounce'],
    ['complaint@simulator.amazonses.com', 'complaint'],
    ['complaint+abc@simulator.amazonses.com', 'complaint'],
    ['suppressionlist@simulator.amazonses.com', 'suppressed'],
    ['ooto@simulator.amazonses.com', 'delivery'],
    ['bounce@example.com', 'delivery'],
    ['someone@example.org', 'delivery'],
    ['not-an-address', 'delivery'],
    // The emulator's own triggers.
    [local('transient'), 'transient'],
    [local('MailboxFull'), 'mailbox-full'],
    [local('messagetoolarge+x'), 'message-too-large'],
    [local('contentrejected'), 'content-rejected'],
    [local('attachmentrejected'), 'attachment-rejected'],
    [local('undetermined'), 'undetermined'],
    [local('noemail'), 'no-email'],
    [local('tenantsuppressionlist'), 'tenant-suppressed'],
    [local('complaintsuppressed'), 'complaint-suppressed'],
    [local('delay+mailboxfull'), 'delay'],
    [local('reject'), 'reject'],
    [local('anyone'), 'delivery'],
    [local('inactive'), 'mailbox-inactive'],
    [local('Blocked+x'), 'blocked-reputation'],
    [local('ratelimited'), 'rate-limited'],
    // A domain reserved never to resolve (RFC 2606), at any depth.
    ['ann@nowhere.invalid', 'domain-invalid'],
    ['ann@mail.Nowhere.INVALID', 'domain-invalid'],
    ['ann@invalid.example.com', 'delivery'],
    // Not the simulator's: the triggers exist only at the local domain.
    ['transient@simulator.amazonses.com', 'delivery'],
  ])('%s -> %s', (address, outcome) => {
    expect(outcomeFor(address)).toBe(outcome);
  });

  it('reads the delay type and the early label', () => {
    expect(delayTypeFor(local('delay'))).toBe('TransientCommunicationFailure');
    expect(delayTypeFor(local('delay+MailboxFull'))).toBe('MailboxFull');
    expect(isEarly('bounce+early@simulator.amazonses.com')).toBe(true);
    expect(isEarly('bounce+late@simulator.amazonses.com')).toBe(false);
  });
});

describe('plannedEvents', () => {
  it('one Delivery per recipient, bounces grouped by type and sub-type, complaints last', () => {
    const recipients = [
      'a@example.com',
      'bounce@simulator.amazonses.com',
      'complaint@simulator.amazonses.com',
      'suppressionlist@simulator.amazonses.com',
      'bounce+2@simulator.amazonses.com',
      local('mailboxfull'),
    ];
    expect(plannedEvents(recipients)).toEqual([
      { type: 'Send' },
      { type: 'Delivery', recipients: ['a@example.com'] },
      { type: 'Delivery', recipients: ['complaint@simulator.amazonses.com'] },
      {
        type: 'Bounce',
        bounceType: 'Permanent',
        subType: 'General',
        recipients: ['bounce@simulator.amazonses.com', 'bounce+2@simulator.amazonses.com'],
      },
      {
        type: 'Bounce',
        bounceType: 'Permanent',
        subType: 'OnAccountSuppressionList',
        recipients: ['suppressionlist@simulator.amazonses.com'],
      },
      { type: 'Bounce', bounceType: 'Transient', subType: 'MailboxFull', recipients: [local('mailboxfull')] },
      { type: 'Complaint', complaintSubType: null, recipients: ['complaint@simulator.amazonses.com'] },
    ]);
  });

  it("recipients sharing a General bounce keep each its own reply; the others take their sub-type's", () => {
    const [, bounce] = plannedEvents(['bounce@simulator.amazonses.com', local('inactive'), local('blocked')]);
    expect(bounce).toEqual({
      type: 'Bounce',
      bounceType: 'Permanent',
      subType: 'General',
      recipients: ['bounce@simulator.amazonses.com', local('inactive'), local('blocked')],
      replies: {
        [local('inactive')]: {
          status: '5.2.1',
          diagnosticCode: expect.stringContaining('550-5.2.1 The email account that you tried to reach is disabled'),
        },
        [local('blocked')]: { status: '5.7.1', diagnosticCode: expect.stringContaining('blocked using zen.spamhaus.org') },
      },
    });
    expect(plannedEvents([local('ratelimited'), 'ann@nowhere.invalid'])[1]).toMatchObject({
      bounceType: 'Transient',
      subType: 'General',
      replies: {
        [local('ratelimited')]: { status: '4.7.28' },
        'ann@nowhere.invalid': { status: '5.4.4', diagnosticCode: 'smtp; 550 5.4.4 Invalid domain' },
      },
    });
  });

  it('always starts with Send', () => {
    expect(plannedEvents(['success@simulator.amazonses.com'])).toEqual([
      { type: 'Send' },
      { type: 'Delivery', recipients: ['success@simulator.amazonses.com'] },
    ]);
    expect(plannedEvents(['bounce@simulator.amazonses.com']).map((e) => e.type)).toEqual(['Send', 'Bounce']);
    expect(plannedEvents(['complaint@simulator.amazonses.com']).map((e) => e.type)).toEqual(['Send', 'Delivery', 'Complaint']);
  });

  it('a delay comes before the Delivery; a suppressed complaint has no Delivery; a Reject replaces every outcome', () => {
    expect(plannedEvents([local('delay+mailboxfull')])).toEqual([
      { type: 'Send' },
      { type: 'DeliveryDelay', delayType: 'MailboxFull', recipients: [local('delay+mailboxfull')] },
      { type: 'Delivery', recipients: [local('delay+mailboxfull')], afterDelay: true },
    ]);
    expect(plannedEvents([local('complaintsuppressed')])).toEqual([
      { type: 'Send' },
      { type: 'Complaint', complaintSubType: 'OnAccountSuppressionList', recipients: [local('complaintsuppressed')] },
    ]);
    expect(plannedEvents(['a@example.com', local('reject')])).toEqual([{ type: 'Send' }, { type: 'Reject' }]);
  });

  it('out of order: `+early` recipients, or not-sent events in `ses` order, go right after Send', () => {
    const two = ['a@example.com', 'suppressionlist@simulator.amazonses.com'];
    expect(plannedEvents(two).map((e) => e.type)).toEqual(['Send', 'Delivery', 'Bounce']);
    expect(plannedEvents(two, { order: 'ses' })).toEqual([
      { type: 'Send' },
      {
        type: 'Bounce',
        bounceType: 'Permanent',
        subType: 'OnAccountSuppressionList',
        recipients: ['suppressionlist@simulator.amazonses.com'],
        early: true,
      },
      { type: 'Delivery', recipients: ['a@example.com'] },
    ]);
    expect(plannedEvents(['a@example.com', 'bounce+early@simulator.amazonses.com']).map((e) => e.type)).toEqual([
      'Send',
      'Bounce',
      'Delivery',
    ]);
  });

  it('takes an outcome decided elsewhere (a suppression list) before the simulator', () => {
    const events = plannedEvents(['x@example.com'], { outcomeOf: (a) => (a === 'x@example.com' ? 'suppressed' : undefined) });
    expect(events).toEqual([
      { type: 'Send' },
      { type: 'Bounce', bounceType: 'Permanent', subType: 'OnAccountSuppressionList', recipients: ['x@example.com'] },
    ]);
  });
});
