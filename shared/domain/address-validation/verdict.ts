/**
 * The verdict and score of one address from its checks (docs/deliverability.md, "Address validation":
 * the table there is this file's). Pure: the checks are gathered by shared/usecases/address-validation/.
 *
 * - invalid: mail to it cannot be delivered: bad syntax; a domain with no mail host (NXDOMAIN, or
 *   neither MX nor A/AAAA: RFC 5321 section 5.1); a null MX (RFC 7505: the domain says it takes no mail);
 *   suppressed in this account after a bounce (the receiver already refused the mailbox permanently); a
 *   non-ASCII local part (RFC 6531 allows it, but Amazon SES does not support SMTPUTF8: "the local part of a
 *   destination email address ... may only contain 7-bit ASCII characters", SES API reference, Destination;
 *   so this service can never deliver to it).
 * - risky: it may be delivered but costs reputation or could not be checked: a DNS failure (timeout,
 *   SERVFAIL: not a proof of absence), a disposable domain, a role address, an address suppressed for
 *   another reason (a complaint, an unsubscribe, a manual entry, an erased address's kept list: the
 *   mailbox exists, but this account must not mail it), a probable typo of a large provider's domain.
 * - valid: none of those.
 *
 * The score (0..1, two decimals) orders addresses within a verdict: an invalid one scores 0 (syntax),
 * 0.05 (domain) or 0.1 (bounced); otherwise 1 minus the penalties below (an A-only domain 0.1 too: a
 * host that never meant to take mail often has only an A record), at least 0.1 for a risky one.
 */
import type { SuppressionReason } from '../suppressions/reasons';
import type { SyntaxProblem } from './syntax';

export const VERDICTS = ['valid', 'risky', 'invalid'] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * What DNS said about the domain's mail hosts: MX records; none but A/AAAA (the implicit MX); a null MX;
 * no mail host at all (NXDOMAIN, or the name has neither); the lookup failed or timed out; not asked
 * (the syntax was invalid).
 */
export const DOMAIN_RESULTS = ['mx', 'implicit_mx', 'null_mx', 'no_mail_host', 'dns_error', 'not_checked'] as const;
export type DomainResult = (typeof DOMAIN_RESULTS)[number];

export interface DomainCheck {
  result: DomainResult;
  /** The mail hosts: MX exchanges by preference, or the domain itself for an implicit MX. */
  hosts: string[];
}

/** Why an address is suppressed in this account: a list entry's reason, or `erased` (an erased address's lists, kept by hash). */
export type SuppressedFor = SuppressionReason | 'erased';

export interface AddressChecks {
  syntax: { valid: boolean; problem: SyntaxProblem | null; smtputf8: boolean };
  domain: DomainCheck;
  disposable: boolean;
  role: boolean;
  suppressed: { suppressed: boolean; reason: SuppressedFor | null };
  /** The address with a common provider's domain in place of a probable typo, or null. */
  suggestion: string | null;
}

/** Reason codes, in the order a verdict's reasons are listed. */
export const VALIDATION_REASONS = [
  'invalid_syntax',
  'no_mail_host',
  'null_mx',
  'suppressed_bounce',
  'dns_error',
  'disposable_domain',
  'suppressed',
  'possible_typo',
  'role_address',
  'smtputf8_local_part',
  'implicit_mx',
] as const;
export type ValidationReason = (typeof VALIDATION_REASONS)[number];

/** Score penalties of the non-fatal reasons (those that leave an address valid or risky). */
const PENALTIES: Partial<Record<ValidationReason, number>> = {
  dns_error: 0.4,
  disposable_domain: 0.5,
  suppressed: 0.5,
  possible_typo: 0.3,
  role_address: 0.2,
  implicit_mx: 0.1,
};

const INVALID_SCORES: Partial<Record<ValidationReason, number>> = {
  invalid_syntax: 0,
  no_mail_host: 0.05,
  null_mx: 0.05,
  smtputf8_local_part: 0.05,
  suppressed_bounce: 0.1,
};
/** Reasons that make an address risky (the others of PENALTIES, implicit_mx, leave it valid). */
const RISKY = new Set<ValidationReason>(['dns_error', 'disposable_domain', 'suppressed', 'possible_typo', 'role_address']);

export interface Assessment {
  verdict: Verdict;
  score: number;
  reasons: ValidationReason[];
}

export function reasonsOf(checks: AddressChecks): ValidationReason[] {
  const found = new Set<ValidationReason>();
  if (!checks.syntax.valid) found.add('invalid_syntax');
  if (checks.domain.result === 'no_mail_host') found.add('no_mail_host');
  if (checks.domain.result === 'null_mx') found.add('null_mx');
  if (checks.domain.result === 'dns_error') found.add('dns_error');
  if (checks.domain.result === 'implicit_mx') found.add('implicit_mx');
  if (checks.suppressed.suppressed) found.add(checks.suppressed.reason === 'bounce' ? 'suppressed_bounce' : 'suppressed');
  if (checks.disposable) found.add('disposable_domain');
  if (checks.suggestion !== null) found.add('possible_typo');
  if (checks.role) found.add('role_address');
  if (checks.syntax.smtputf8) found.add('smtputf8_local_part');
  return VALIDATION_REASONS.filter((reason) => found.has(reason));
}

export function assess(checks: AddressChecks): Assessment {
  const reasons = reasonsOf(checks);
  const fatal = reasons.find((reason) => INVALID_SCORES[reason] !== undefined);
  if (fatal) return { verdict: 'invalid', score: INVALID_SCORES[fatal]!, reasons };
  const risky = reasons.some((reason) => RISKY.has(reason));
  const penalty = reasons.reduce((sum, reason) => sum + (PENALTIES[reason] ?? 0), 0);
  const score = Math.round(Math.max(risky ? 0.1 : 0, 1 - penalty) * 100) / 100;
  return { verdict: risky ? 'risky' : 'valid', score, reasons };
}

/** Whether the domain alone proves the address undeliverable (the send's `validate: true` refuses these). */
export function domainRefuses(result: DomainResult): boolean {
  return result === 'no_mail_host' || result === 'null_mx';
}
