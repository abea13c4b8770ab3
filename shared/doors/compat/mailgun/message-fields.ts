/**
 * Which fields of Mailgun's `POST /v3/{domain}/messages` this service takes (docs/compat.md, "Mailgun"): the
 * fields it reads, the options it honours or knowingly ignores, and those it refuses, each with why. Pure.
 */

/** Reports a problem with one field of the form. */
export type FieldIssue = (field: string, message: string) => void;

/**
 * Options honoured (the tracking ones: docs/tracking.md, "Per message") or knowingly ignored (docs/compat.md,
 * "Mailgun"), with their allowed values; any other `o:` is refused.
 */
const YES_NO = ['yes', 'no', 'true', 'false'];
const TRACKING = [...YES_NO, 'htmlonly'];
const IGNORED_OPTIONS: Readonly<Record<string, readonly string[] | null>> = {
  'o:tracking': TRACKING,
  'o:tracking-clicks': TRACKING,
  'o:tracking-opens': YES_NO,
  'o:dkim': YES_NO,
  'o:skip-verification': YES_NO,
  'o:sending-ip': null,
  'o:sending-ip-pool': null,
  'o:suppress-headers': null,
  't:text': YES_NO,
  'amp-html': null,
};
/** Options whose "yes" this service cannot honour, each with why. */
const REFUSED_WHEN_YES: Readonly<Record<string, string>> = {
  'o:testmode':
    'this service has no test mode (a test-mode message would really be sent); send from the sandbox domain to your account email instead',
  'o:require-tls': 'TLS is required per sending domain here (PATCH /domains/{id} {"tls_mode": "enforced"}), not per message',
};
/** Fields this service refuses whatever their value, each with why. */
const REFUSED: Readonly<Record<string, string>> = {
  'o:deliverytime-optimize-period': 'send time optimization is not supported; give o:deliverytime',
  'o:time-zone-localize': 'time zone localization is not supported; give o:deliverytime',
  'o:archive-to': 'message archiving is not supported',
  't:version': "templates send their published version only (a template's versions are not addressable here)",
  message:
    'MIME messages are sent with POST /v3/{domain}/messages.mime, which this service does not offer: use the SMTP relay for raw MIME',
};
const SINGLE_FIELDS = ['from', 'subject', 'text', 'html', 'template', 'recipient-variables', 't:variables', 'o:deliverytime'];
const LIST_FIELDS = ['to', 'cc', 'bcc', 'o:tag'];

const isYes = (value: string) => ['yes', 'true'].includes(value.trim().toLowerCase());

/** Every field given is one this service takes, with an allowed value; a single field is given once. */
export function checkFieldNames(fields: Readonly<Record<string, string[]>>, issue: FieldIssue): void {
  for (const [field, values] of Object.entries(fields)) {
    const lower = field.toLowerCase();
    if (SINGLE_FIELDS.includes(field) && values.length > 1) issue(field, `'${field}' parameter may be given once`);
    if (REFUSED[field] !== undefined) issue(field, `'${field}' is not supported: ${REFUSED[field]}`);
    else if (REFUSED_WHEN_YES[field] !== undefined) {
      if (values.some(isYes)) issue(field, `'${field}' is not supported: ${REFUSED_WHEN_YES[field]}`);
      else if (!values.every((value) => YES_NO.includes(value.trim().toLowerCase()))) issue(field, `'${field}' must be yes or no`);
    } else if (field in IGNORED_OPTIONS) {
      const allowed = IGNORED_OPTIONS[field];
      if (allowed && !values.every((value) => allowed.includes(value.trim().toLowerCase())))
        issue(field, `'${field}' must be one of ${allowed.join(', ')}`);
    } else if (!SINGLE_FIELDS.includes(field) && !LIST_FIELDS.includes(field) && !lower.startsWith('h:') && !lower.startsWith('v:')) {
      issue(field, `'${field}' is not a parameter this service takes (docs/compat.md, "Mailgun" lists them)`);
    }
  }
}
