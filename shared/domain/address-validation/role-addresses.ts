/**
 * Role addresses: local parts that name a function or a team rather than a person. Mail to them reaches
 * several people or a ticket queue, is complained about more often and is a common spam-trap seed; the
 * validation answers them `risky`, never `invalid` (they exist, RFC 2142 even requires some).
 *
 * The list: RFC 2142's mailbox names (section 3-5), the no-reply forms, and the team names the large
 * validation services flag (SendGrid's `is_suspected_role_address`, Mailgun's `is_role_address`). A local
 * part matches when it equals an entry, ignoring case, a `+tag` (subaddress) and `-`, `_`, `.` separators
 * (`no-reply`, `no_reply` and `noreply` are one entry).
 */
export const ROLE_LOCAL_PARTS: readonly string[] = [
  // RFC 2142
  'info',
  'marketing',
  'sales',
  'support',
  'abuse',
  'noc',
  'security',
  'postmaster',
  'hostmaster',
  'usenet',
  'news',
  'webmaster',
  'www',
  'uucp',
  'ftp',
  // no-reply forms
  'noreply',
  'donotreply',
  'mailerdaemon',
  'bounce',
  'bounces',
  // teams and functions
  'admin',
  'administrator',
  'root',
  'sysadmin',
  'it',
  'help',
  'helpdesk',
  'contact',
  'office',
  'team',
  'hello',
  'billing',
  'accounts',
  'accounting',
  'finance',
  'invoices',
  'hr',
  'jobs',
  'careers',
  'legal',
  'compliance',
  'privacy',
  'press',
  'media',
  'orders',
  'service',
  'feedback',
  'enquiries',
  'inquiries',
  'all',
  'everyone',
  'staff',
  'list',
  'newsletter',
  'subscribe',
  'unsubscribe',
];

const ROLES = new Set(ROLE_LOCAL_PARTS);

/** Whether `local` (a local part) is a role address by the list above. */
export function isRoleAddress(local: string): boolean {
  const base = local.toLowerCase().split('+')[0]!.replace(/[-_.]/g, '');
  return ROLES.has(base);
}
