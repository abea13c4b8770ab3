/**
 * The bounce taxonomy's rule table (shared/domain/bounces/bounce-category.ts): every category reached from
 * SES-shaped bounces and delays, with and without the recipient's status and diagnosticCode; the docs'
 * table lists every rule.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BOUNCE_CATEGORIES,
  BOUNCE_RULES,
  categorize,
  DEFAULT_SUPPRESS_BOUNCE_CATEGORIES,
  suppressesBounce,
  type BounceCategory,
  type SesRefusal,
} from '#shared/domain/bounces/bounce-category';
import { parseSesEvent } from '#shared/domain/ses/ses-event';

const bounce = (bounceType: string, bounceSubType: string, status?: string, diagnosticCode?: string): SesRefusal => ({
  kind: 'bounce',
  bounceType,
  bounceSubType,
  ...(status ? { status } : {}),
  ...(diagnosticCode ? { diagnosticCode } : {}),
});
const delay = (delayType: string, status?: string, diagnosticCode?: string): SesRefusal => ({
  kind: 'delay',
  delayType,
  ...(status ? { status } : {}),
  ...(diagnosticCode ? { diagnosticCode } : {}),
});

const CASES: [string, SesRefusal, BounceCategory][] = [
  // invalid_address
  [
    'SES simulator bounce@ (Permanent General 5.1.1 user unknown)',
    bounce('Permanent', 'General', '5.1.1', 'smtp; 550 5.1.1 user unknown'),
    'invalid_address',
  ],
  ['Permanent NoEmail, no status', bounce('Permanent', 'NoEmail'), 'invalid_address'],
  [
    'Permanent Suppressed',
    bounce(
      'Permanent',
      'Suppressed',
      '5.1.1',
      'Amazon SES has suppressed sending to this address because it has a recent history of bouncing as an invalid address.',
    ),
    'invalid_address',
  ],
  [
    'Gmail 5.1.1 does not exist',
    bounce(
      'Permanent',
      'General',
      '5.1.1',
      "smtp; 550-5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address",
    ),
    'invalid_address',
  ],
  ['Permanent General with only the code', bounce('Permanent', 'General', '5.1.1'), 'invalid_address'],
  ['Permanent General with nothing else', bounce('Permanent', 'General'), 'invalid_address'],
  [
    'Exchange Online 5.4.1 access denied (no such recipient)',
    bounce('Permanent', 'General', '5.4.1', 'smtp; 550 5.4.1 Recipient address rejected: Access denied. AS(201806281)'),
    'invalid_address',
  ],
  // mailbox_full
  ['Transient MailboxFull', bounce('Transient', 'MailboxFull', '5.2.2', 'smtp; 552 5.2.2 Mailbox full'), 'mailbox_full'],
  [
    'Gmail 4.2.2 over quota (Transient General)',
    bounce('Transient', 'General', '4.2.2', 'smtp; 452-4.2.2 The email account that you tried to reach is over quota.'),
    'mailbox_full',
  ],
  ['code 5.2.2 alone', bounce('Transient', 'General', '5.2.2'), 'mailbox_full'],
  ['delay MailboxFull', delay('MailboxFull', '4.2.2', 'smtp; 452 4.2.2 Mailbox full'), 'mailbox_full'],
  // mailbox_inactive
  [
    'Gmail 5.2.1 disabled',
    bounce('Permanent', 'General', '5.2.1', 'smtp; 550-5.2.1 The email account that you tried to reach is disabled.'),
    'mailbox_inactive',
  ],
  ['code 5.2.1 alone', bounce('Permanent', 'General', '5.2.1'), 'mailbox_inactive'],
  [
    'inactive account text, no status',
    bounce('Permanent', 'General', undefined, '550 This account has been deactivated'),
    'mailbox_inactive',
  ],
  // domain_invalid
  [
    'host or domain name not found',
    bounce('Permanent', 'General', '5.4.4', 'smtp; 550 5.4.4 Host or domain name not found. Name service error'),
    'domain_invalid',
  ],
  ['null MX 5.1.10', bounce('Permanent', 'General', '5.1.10'), 'domain_invalid'],
  ['5.1.2 bad destination system', bounce('Permanent', 'General', '5.1.2'), 'domain_invalid'],
  // blocked_reputation
  [
    'Outlook 5.7.606 banned sending IP',
    bounce('Permanent', 'General', '5.7.606', 'smtp; 550 5.7.606 Access denied, banned sending IP [192.0.2.1]'),
    'blocked_reputation',
  ],
  [
    'Spamhaus listing',
    bounce('Permanent', 'General', '5.7.1', 'smtp; 554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org'),
    'blocked_reputation',
  ],
  [
    'Gmail 5.7.26 unauthenticated (DMARC)',
    bounce('Permanent', 'General', '5.7.26', 'smtp; 550-5.7.26 This mail has been blocked because the sender is unauthenticated.'),
    'blocked_reputation',
  ],
  ['5.7.1 policy refusal without words', bounce('Permanent', 'General', '5.7.1', 'smtp; 550 5.7.1 message refused'), 'blocked_reputation'],
  ['delay SpamDetected', delay('SpamDetected', '4.7.1', 'smtp; 451 4.7.1 Temporarily rejected as spam'), 'blocked_reputation'],
  ['delay IPFailure with nothing else', delay('IPFailure'), 'blocked_reputation'],
  // blocked_content
  [
    'Transient ContentRejected',
    bounce('Transient', 'ContentRejected', '5.7.1', 'smtp; 554 5.7.1 Message content rejected'),
    'blocked_content',
  ],
  ['Transient AttachmentRejected, no status', bounce('Transient', 'AttachmentRejected'), 'blocked_content'],
  [
    'Gmail 5.7.1 likely unsolicited',
    bounce('Permanent', 'General', '5.7.1', 'smtp; 550-5.7.1 Our system has detected that this message is likely unsolicited mail.'),
    'blocked_content',
  ],
  ['spam policy, no status', bounce('Permanent', 'General', undefined, 'smtp; 554 blocked by spam policy'), 'blocked_content'],
  // rate_limited
  [
    'Gmail 4.7.28 rate limited',
    bounce(
      'Transient',
      'General',
      '4.7.28',
      'smtp; 421-4.7.28 Our system has detected an unusual rate of unsolicited mail originating from your IP address.',
    ),
    'rate_limited',
  ],
  [
    'Yahoo TSS04 deferral',
    delay(
      'General',
      '4.7.0',
      'smtp; 421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints',
    ),
    'rate_limited',
  ],
  [
    'IPFailure that says it is throttled',
    delay('IPFailure', '4.7.0', 'smtp; 421 4.7.0 Too many messages from your IP, throttled'),
    'rate_limited',
  ],
  ['4.7.0 alone', delay('General', '4.7.0'), 'rate_limited'],
  ['4.4.5 congestion', delay('RecipientServerError', '4.4.5'), 'rate_limited'],
  // technical
  [
    'Transient General 4.4.7 delivery time expired',
    bounce('Transient', 'General', '4.4.7', 'smtp; 451 4.4.7 Delivery time expired'),
    'technical',
  ],
  [
    'Transient MessageTooLarge',
    bounce('Transient', 'MessageTooLarge', '5.3.4', 'smtp; 552 5.3.4 Message size exceeds fixed maximum message size'),
    'technical',
  ],
  [
    'delay TransientCommunicationFailure',
    delay('TransientCommunicationFailure', '4.4.1', 'smtp; 421 4.4.1 Unable to connect to remote host'),
    'technical',
  ],
  ['delay InternalFailure, nothing else', delay('InternalFailure'), 'technical'],
  ['delay RecipientServerError 4.3.0', delay('RecipientServerError', '4.3.0', 'smtp; 451 4.3.0 Temporary server error'), 'technical'],
  ['delay RecipientServerError, nothing else', delay('RecipientServerError'), 'technical'],
  [
    'TLS required, code only in the text',
    delay('General', undefined, 'smtp; 454 4.7.0 TLS not available due to local problem'),
    'technical',
  ],
  // unclassified
  ['Undetermined 5.0.0, no diagnostic', bounce('Undetermined', 'Undetermined', '5.0.0'), 'unclassified'],
  ['Transient General with nothing', bounce('Transient', 'General'), 'unclassified'],
  ['delay Undetermined', delay('Undetermined'), 'unclassified'],
  [
    'OnAccountSuppressionList (not sent)',
    bounce(
      'Permanent',
      'OnAccountSuppressionList',
      '5.1.1',
      'Amazon SES did not send the message to this address because it is on the suppression list for your account.',
    ),
    'unclassified',
  ],
];

describe('categorize', () => {
  it.each(CASES)('%s -> %s', (_name, refusal, category) => {
    expect(categorize(refusal).category).toBe(category);
  });

  it('reaches every category, from bounces and from delays', () => {
    expect(new Set(CASES.map(([, , category]) => category))).toEqual(new Set(BOUNCE_CATEGORIES));
  });

  it('names the rule that decided', () => {
    expect(categorize(bounce('Permanent', 'NoEmail'))).toEqual({ category: 'invalid_address', rule: 'ses-noemail' });
    expect(categorize(bounce('Transient', 'General'))).toEqual({ category: 'unclassified', rule: 'unclassified' });
  });

  it('ends with a rule that matches everything, and every rule id is unique', () => {
    expect(BOUNCE_RULES.at(-1)!.id).toBe('unclassified');
    expect(new Set(BOUNCE_RULES.map((rule) => rule.id)).size).toBe(BOUNCE_RULES.length);
  });

  it('is documented: docs/deliverability.md lists every rule id and category', () => {
    const docs = readFileSync(join(__dirname, '../../../docs/deliverability.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## Bounce categories'), docs.indexOf('\n## ', docs.indexOf('## Bounce categories') + 1));
    for (const rule of BOUNCE_RULES) expect(section).toContain(`\`${rule.id}\``);
    for (const category of BOUNCE_CATEGORIES) expect(section).toContain(`\`${category}\``);
  });
});

describe('suppressesBounce', () => {
  it('suppresses invalid, inactive and invalid-domain bounces by default, never reputation or content blocks', () => {
    expect(DEFAULT_SUPPRESS_BOUNCE_CATEGORIES).toEqual(['invalid_address', 'mailbox_inactive', 'domain_invalid']);
    for (const category of BOUNCE_CATEGORIES)
      expect(suppressesBounce(category, undefined)).toBe(DEFAULT_SUPPRESS_BOUNCE_CATEGORIES.includes(category));
  });

  it("follows the account's choice when it made one", () => {
    expect(suppressesBounce('invalid_address', [])).toBe(false);
    expect(suppressesBounce('mailbox_full', ['mailbox_full'])).toBe(true);
  });
});

describe('the category in parsed SES events', () => {
  const mail = { messageId: 'ses-1', timestamp: '2026-01-01T00:00:00.000Z', tags: { email_id: ['msg_1'], account_id: ['acc_1'] } };
  const body = (event: object) => JSON.stringify(event);

  it("keeps the first recipient's category on the outcome and each recipient's as a suppression candidate", () => {
    const parsed = parseSesEvent(
      body({
        eventType: 'Bounce',
        mail,
        bounce: {
          bounceType: 'Permanent',
          bounceSubType: 'General',
          bouncedRecipients: [
            { emailAddress: 'a@y.io', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
            { emailAddress: 'b@y.io', status: '5.7.1', diagnosticCode: 'smtp; 554 5.7.1 blocked using zen.spamhaus.org' },
          ],
        },
      }),
    );
    expect(parsed.outcome?.fields.bounce_category).toBe('invalid_address');
    expect(parsed.suppress).toEqual({
      reason: 'bounce',
      recipients: [
        { email: 'a@y.io', category: 'invalid_address' },
        { email: 'b@y.io', category: 'blocked_reputation' },
      ],
    });
  });

  it("gives a DeliveryDelay its type and category (the first delayed recipient's)", () => {
    const parsed = parseSesEvent(
      body({
        eventType: 'DeliveryDelay',
        mail,
        deliveryDelay: {
          delayType: 'General',
          delayedRecipients: [{ emailAddress: 'd@y.io', status: '4.2.2', diagnosticCode: 'smtp; 452 4.2.2 over quota' }],
        },
      }),
    );
    expect(parsed.delay).toEqual({ type: 'General', category: 'mailbox_full' });
    expect(parsed.outcome?.fields).toEqual({});
  });
});
