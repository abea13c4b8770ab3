/**
 * The sender's authentication verdicts (SPF, DKIM, DMARC), as checked by the MX listener, carried in the
 * inbound queue message, recorded and published. The zod schema is the single source of the types. Pure.
 */
import * as z from 'zod';
import { modelSchema } from '../model-schema';

export const AUTH_RESULTS = ['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy'] as const;
export type AuthResult = (typeof AUTH_RESULTS)[number];

/** At most this many DKIM signatures are reported (the first in header order); a message may carry thousands. */
export const MAX_DKIM_RESULTS = 10;

/**
 * What the checks found (shared/doors/mx/check-authentication.ts): the `authentication` of an inbound queue
 * message, and of the record without its spam reasons.
 */
export const authenticationChecksSchema = z.object({
  spf: z.object({ result: z.enum(AUTH_RESULTS), domain: z.string().nullable() }),
  dkim: z.array(
    z.object({ result: z.enum(AUTH_RESULTS), domain: z.string().nullable(), selector: z.string().nullable(), aligned: z.boolean() }),
  ),
  dmarc: z.object({
    result: z.enum(AUTH_RESULTS),
    domain: z.string().nullable(),
    policy: z.enum(['none', 'quarantine', 'reject']).nullable(),
  }),
});
export type AuthenticationChecks = z.output<typeof authenticationChecksSchema>;

export interface Authentication extends AuthenticationChecks {
  /** Why the spam verdict is `spam` ([] when it is not). */
  spam_reasons: string[];
}

/** The recorded verdicts (a received email's `authentication`), checked against the interface. */
export const authenticationSchema = modelSchema<Authentication>()(authenticationChecksSchema.extend({ spam_reasons: z.array(z.string()) }));

/** A verdict word from a checker, kept when known, else `neutral` (never trusted blindly). */
export function toAuthResult(value: unknown): AuthResult {
  return typeof value === 'string' && (AUTH_RESULTS as readonly string[]).includes(value) ? (value as AuthResult) : 'neutral';
}

/**
 * What is recorded when the checks could not run at all (a DNS outage, a message the checker rejects, the
 * checks' time limit, a queue message from before the MX listener checked).
 */
export function uncheckedAuthentication(): AuthenticationChecks {
  return { spf: { result: 'temperror', domain: null }, dkim: [], dmarc: { result: 'temperror', domain: null, policy: null } };
}
