/**
 * The bounce taxonomy (docs/deliverability.md, "Bounce categories"): every bounce and delivery delay SES
 * reports gets one named category, from SES's bounce type and sub-type (or a delay's delayType) and the
 * receiving server's enhanced status code (RFC 3463) and reply text. Pure: an ordered rule table, the
 * first rule that matches decides; each rule names its source. The docs list every rule by its id (a
 * unit test holds them in step).
 */

export const BOUNCE_CATEGORIES = [
  'invalid_address',
  'mailbox_full',
  'mailbox_inactive',
  'domain_invalid',
  'blocked_reputation',
  'blocked_content',
  'rate_limited',
  'technical',
  'unclassified',
] as const;
export type BounceCategory = (typeof BOUNCE_CATEGORIES)[number];

export function isBounceCategory(value: unknown): value is BounceCategory {
  return typeof value === 'string' && (BOUNCE_CATEGORIES as readonly string[]).includes(value);
}

/** How the dashboard names each category. */
export const BOUNCE_CATEGORY_LABELS: Record<BounceCategory, string> = {
  invalid_address: 'Invalid address',
  mailbox_full: 'Mailbox full',
  mailbox_inactive: 'Mailbox inactive',
  domain_invalid: 'Domain invalid',
  blocked_reputation: 'Blocked for reputation',
  blocked_content: 'Blocked for content',
  rate_limited: 'Rate limited',
  technical: 'Technical',
  unclassified: 'Unclassified',
};

/**
 * The categories whose bounces put the address on the suppression list when an account chose none
 * (`suppress_bounce_categories`): those that say the address itself will not take mail again. A full
 * mailbox, a block or a technical failure says nothing of the address, so it is not suppressed.
 */
export const DEFAULT_SUPPRESS_BOUNCE_CATEGORIES: readonly BounceCategory[] = ['invalid_address', 'mailbox_inactive', 'domain_invalid'];

/** What SES says of one refused recipient: a Bounce's type and sub-type, or a DeliveryDelay's delayType, with the recipient's status and diagnosticCode. */
export type SesRefusal =
  | { kind: 'bounce'; bounceType: string; bounceSubType: string; status?: string; diagnosticCode?: string }
  | { kind: 'delay'; delayType: string; status?: string; diagnosticCode?: string };

/** The refusal as the rules read it: the enhanced code from `status` (the reply's when `status` is a bare X.0.0), else the first one in the text; the text in lower case. */
interface Facts {
  kind: 'bounce' | 'delay';
  bounceType: string | null;
  subType: string | null;
  delayType: string | null;
  /** `class.subject.detail` (RFC 3463), e.g. `5.1.1`, or null. */
  code: string | null;
  text: string;
}

export interface BounceRule {
  id: string;
  category: BounceCategory;
  /** Where the rule comes from (the docs' table shows it). */
  source: string;
  matches(facts: Facts): boolean;
}

const ENHANCED_CODE = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;

function factsOf(refusal: SesRefusal): Facts {
  const text = (refusal.diagnosticCode ?? '').toLowerCase();
  const fromStatus = ENHANCED_CODE.exec(refusal.status ?? '')?.[0] ?? null;
  const fromText = ENHANCED_CODE.exec(text)?.[0] ?? null;
  // A generic status (X.0.0: "other undefined status") says less than a code in the reply, when there is one.
  const code = fromStatus && !(fromStatus.endsWith('.0.0') && fromText) ? fromStatus : (fromText ?? fromStatus);
  return refusal.kind === 'bounce'
    ? { kind: 'bounce', bounceType: refusal.bounceType, subType: refusal.bounceSubType, delayType: null, code, text }
    : { kind: 'delay', bounceType: null, subType: null, delayType: refusal.delayType, code, text };
}

const SES_BOUNCE_TYPES = 'SES event contents, bounce types (event-publishing-retrieving-sns-contents.html)';
const SES_DELAY_TYPES = 'SES event contents, DeliveryDelay delayType (event-publishing-retrieving-sns-contents.html)';
const RFC3463 = 'RFC 3463 enhanced status codes (and the IANA registry, RFC 5248)';

const subType =
  (bounceType: string, ...subTypes: string[]) =>
  (f: Facts) =>
    f.kind === 'bounce' && f.bounceType === bounceType && subTypes.includes(f.subType ?? '');
const delayType =
  (...types: string[]) =>
  (f: Facts) =>
    f.kind === 'delay' && types.includes(f.delayType ?? '');
const text = (pattern: RegExp) => (f: Facts) => pattern.test(f.text);
/** The enhanced code's subject and detail (class 4 or 5 alike), e.g. `1.1`; `detail` '*' is any. */
const code =
  (...subjects: string[]) =>
  (f: Facts) => {
    if (!f.code) return false;
    const [, subject, detail] = f.code.split('.');
    return subjects.some((wanted) => {
      const [s, d] = wanted.split('.');
      return s === subject && (d === '*' || d === detail);
    });
  };
const codeIs = (full: string) => (f: Facts) => f.code === full;
const either =
  (...tests: ((f: Facts) => boolean)[]) =>
  (f: Facts) =>
    tests.some((t) => t(f));
const outlookBannedIp = (f: Facts) => {
  const [klass, subject, detail = 0] = (f.code ?? '').split('.').map(Number);
  return klass === 5 && subject === 7 && detail >= 606 && detail <= 649;
};

/**
 * The rules, in order: SES's own verdicts that name the cause (sub-types, delay types), then what
 * mailbox providers say in words (their texts are more precise than the codes: Gmail's 5.7.1 is spam
 * or policy), then the enhanced code, then SES's bounce type as the last resort.
 */
export const BOUNCE_RULES: readonly BounceRule[] = [
  // SES's sub-types and delay types that name the cause.
  {
    id: 'ses-noemail',
    category: 'invalid_address',
    source: `${SES_BOUNCE_TYPES}: Permanent NoEmail, "the target email address does not exist"`,
    matches: subType('Permanent', 'NoEmail'),
  },
  {
    id: 'ses-suppressed',
    category: 'invalid_address',
    source: `${SES_BOUNCE_TYPES}: Permanent Suppressed, "a recent history of bouncing as an invalid address"`,
    matches: subType('Permanent', 'Suppressed'),
  },
  {
    id: 'ses-suppression-list',
    category: 'unclassified',
    source: `${SES_BOUNCE_TYPES}: OnAccountSuppressionList (and the tenant's list): not sent, SES does not say why the address is listed; never suppressed by us`,
    matches: subType('Permanent', 'OnAccountSuppressionList', 'OnTenantSuppressionList'),
  },
  {
    id: 'ses-mailbox-full',
    category: 'mailbox_full',
    source: `${SES_BOUNCE_TYPES}: Transient MailboxFull`,
    matches: subType('Transient', 'MailboxFull'),
  },
  {
    id: 'ses-message-too-large',
    category: 'technical',
    source: `${SES_BOUNCE_TYPES}: Transient MessageTooLarge (RFC 3463 X.3.4, a mail system limit)`,
    matches: subType('Transient', 'MessageTooLarge'),
  },
  {
    id: 'ses-content-rejected',
    category: 'blocked_content',
    source: `${SES_BOUNCE_TYPES}: Transient ContentRejected, AttachmentRejected`,
    matches: subType('Transient', 'ContentRejected', 'AttachmentRejected'),
  },
  { id: 'delay-mailbox-full', category: 'mailbox_full', source: `${SES_DELAY_TYPES}: MailboxFull`, matches: delayType('MailboxFull') },
  {
    id: 'delay-spam-detected',
    category: 'blocked_reputation',
    source: `${SES_DELAY_TYPES}: SpamDetected, "a large amount of unsolicited email from your account"`,
    matches: delayType('SpamDetected'),
  },
  {
    id: 'delay-ses-side',
    category: 'technical',
    source: `${SES_DELAY_TYPES}: InternalFailure, TransientCommunicationFailure, BYOIPHostNameLookupUnavailable, SendingDeferral (SES's side or the SMTP conversation)`,
    matches: delayType('InternalFailure', 'TransientCommunicationFailure', 'BYOIPHostNameLookupUnavailable', 'SendingDeferral'),
  },

  // Mailbox providers' own codes and texts.
  {
    id: 'outlook-banned-ip',
    category: 'blocked_reputation',
    source: 'Outlook.com 5.7.606-5.7.649 "Access denied, banned sending IP" (Microsoft NDR reference)',
    matches: either(outlookBannedIp, text(/banned sending ip/)),
  },
  {
    id: 'outlook-recipient-not-found',
    category: 'invalid_address',
    source: 'Exchange Online 5.4.1 "Recipient address rejected: Access denied" (directory-based edge blocking: no such recipient)',
    matches: text(/recipient address rejected: access denied/),
  },
  {
    id: 'gmail-rate-limited',
    category: 'rate_limited',
    source: 'Gmail 4.7.28 / 4.7.0 "unusual rate of unsolicited mail ... rate limited"',
    matches: either(codeIs('4.7.28'), codeIs('5.7.28'), text(/unusual rate|rate[- ]limit|ratelimit/)),
  },
  {
    id: 'yahoo-deferred',
    category: 'rate_limited',
    source: 'Yahoo 4.7.0 [TSS04]/[TS0x] "temporarily deferred due to unexpected volume or user complaints"',
    matches: text(/\[tss?0\d\]/),
  },
  {
    id: 'text-blocklist',
    category: 'blocked_reputation',
    source: 'Block lists and reputation named in the reply (Spamhaus, Barracuda, SpamCop, "blocklist", "poor reputation")',
    matches: text(/spamhaus|barracuda|spamcop|block ?list|black ?list|\bdnsbl\b|\brbl\b|listed (at|on|in|by)|reputation/),
  },
  {
    id: 'text-authentication',
    category: 'blocked_reputation',
    source: 'Gmail 5.7.23-5.7.27 and others: the sender is not authenticated (SPF, DKIM, DMARC, reverse DNS)',
    matches: either(
      code('7.23', '7.24', '7.25', '7.26', '7.27'),
      text(/\bdmarc\b|\bspf\b|\bdkim\b|unauthenticated|not authenticated|reverse dns|\bptr\b/),
    ),
  },
  {
    id: 'text-rate',
    category: 'rate_limited',
    source: 'Rate and volume limits in the reply ("too many messages", "throttled", "sending rate")',
    matches: text(/too many (messages|emails|mails|connections|recipients)|throttl|exceeded .*rate|sending rate|volume/),
  },
  {
    id: 'text-mailbox-full',
    category: 'mailbox_full',
    source: 'Gmail 4.2.2/5.2.2 "over quota"; "mailbox full", "insufficient storage"',
    matches: text(
      /over quota|quota exceeded|exceed(s|ed)? (its|the|their|storage) ?quota|mailbox (is )?full|insufficient (system )?storage|out of storage|storage (space )?exceeded/,
    ),
  },
  {
    id: 'text-mailbox-inactive',
    category: 'mailbox_inactive',
    source:
      'Gmail 5.2.1 "the email account that you tried to reach is disabled"; "inactive", "deactivated", "suspended", "expired" accounts',
    matches: text(
      /disabled|deactivated|inactive|suspended|no longer (active|available|in use)|account (has been )?(closed|expired|locked)|expired (account|mailbox)/,
    ),
  },
  {
    id: 'text-domain-invalid',
    category: 'domain_invalid',
    source: 'The recipient domain does not resolve: "host or domain name not found", "no MX", "unrouteable address", NXDOMAIN',
    matches: text(
      /domain (name )?(not found|does not exist|doesn't exist)|host (or domain name )?not found|no mx|null mx|unrout(e)?able|nxdomain|no such domain|name or service not known/,
    ),
  },
  {
    id: 'text-invalid-address',
    category: 'invalid_address',
    source: 'Gmail 5.1.1 "does not exist"; "user unknown", "no such user", "recipient not found", "invalid recipient"',
    matches: text(
      /user unknown|unknown user|no such (user|mailbox|recipient|address)|(does not|doesn't|not) exist|invalid (recipient|mailbox|address)|recipient (not found|unknown|invalid)|unknown recipient|address unknown|mailbox not found|no mailbox/,
    ),
  },
  {
    id: 'text-content',
    category: 'blocked_content',
    source: 'Gmail 5.7.1 "likely unsolicited mail"; "spam", "content", "virus", "phishing", "suspicious link" in the reply',
    matches: text(/spam|unsolicited|content|virus|malware|phishing|suspicious (link|url)|attachment/),
  },
  {
    id: 'text-technical',
    category: 'technical',
    source: 'Network and server failures in the reply (timeouts, refused connections, TLS)',
    matches: text(
      /timed? ?out|connection (refused|reset|closed|dropped|lost)|\btls\b|\bssl\b|starttls|certificate|too many hops|mail loop|routing loop|server (error|busy)/,
    ),
  },

  // The enhanced status code (class 4 or 5), by subject and detail.
  {
    id: 'code-bad-mailbox',
    category: 'invalid_address',
    source: `${RFC3463}: X.1.0 other address status, X.1.1 bad destination mailbox, X.1.3 bad syntax, X.1.4 ambiguous`,
    matches: code('1.0', '1.1', '1.3', '1.4'),
  },
  {
    id: 'code-bad-domain',
    category: 'domain_invalid',
    source: `${RFC3463}: X.1.2 bad destination system address, X.1.10 null MX (RFC 7505), X.4.4 unable to route, X.7.18 domain owner changed`,
    matches: code('1.2', '1.10', '4.4', '7.18'),
  },
  {
    id: 'code-mailbox-inactive',
    category: 'mailbox_inactive',
    source: `${RFC3463}: X.1.6 mailbox moved, X.2.1 mailbox disabled, X.7.13 user account disabled, X.7.17 mailbox owner changed`,
    matches: code('1.6', '2.1', '7.13', '7.17'),
  },
  { id: 'code-mailbox-full', category: 'mailbox_full', source: `${RFC3463}: X.2.2 mailbox full`, matches: code('2.2') },
  {
    id: 'code-congestion',
    category: 'rate_limited',
    source: `${RFC3463}: X.4.5 mail system congestion; Gmail's 4.7.0 "try again later"`,
    matches: either(code('4.5'), codeIs('4.7.0')),
  },
  {
    id: 'code-system',
    category: 'technical',
    source: `${RFC3463}: X.1.7/X.1.8 sender address, X.2.3 message length, X.2.4 list expansion, X.3.x mail system, X.4.x network and routing, X.5.x protocol, X.6.x content conversion`,
    matches: code('1.7', '1.8', '2.3', '2.4', '3.*', '4.*', '5.*', '6.*'),
  },
  {
    id: 'code-policy',
    category: 'blocked_reputation',
    source: `${RFC3463}: X.7.x security or policy status: the sender (not the address) is refused`,
    matches: code('7.*'),
  },

  // Nothing more precise: SES's bounce type, a delay's type.
  {
    id: 'delay-ip-failure',
    category: 'blocked_reputation',
    source: `${SES_DELAY_TYPES}: IPFailure, "the IP address ... is being blocked or throttled"`,
    matches: delayType('IPFailure'),
  },
  {
    id: 'delay-recipient-server',
    category: 'technical',
    source: `${SES_DELAY_TYPES}: RecipientServerError, "a temporary issue with the recipient's email server"`,
    matches: delayType('RecipientServerError'),
  },
  {
    id: 'ses-permanent',
    category: 'invalid_address',
    source: `${SES_BOUNCE_TYPES}: Permanent General, "you should remove the recipient's email address from your mailing list"`,
    matches: (f) => f.kind === 'bounce' && f.bounceType === 'Permanent',
  },
  {
    id: 'unclassified',
    category: 'unclassified',
    source: 'Everything else: Transient General or Undetermined bounces and General or Undetermined delays with nothing to go on',
    matches: () => true,
  },
];

/** The category of one refused recipient, with the id of the rule that decided it. */
export function categorize(refusal: SesRefusal): { category: BounceCategory; rule: string } {
  const facts = factsOf(refusal);
  const rule = BOUNCE_RULES.find((candidate) => candidate.matches(facts))!;
  return { category: rule.category, rule: rule.id };
}

/** Whether a bounce of `category` puts the address on the suppression list, given the account's choice (absent: the defaults). */
export function suppressesBounce(category: BounceCategory, chosen: readonly BounceCategory[] | undefined): boolean {
  return (chosen ?? DEFAULT_SUPPRESS_BOUNCE_CATEGORIES).includes(category);
}
