/** The sender's authentication verdicts (SPF, DKIM, DMARC), as recorded and published. Pure. */
export type AuthResult = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'temperror' | 'permerror' | 'policy';

export interface Authentication {
  spf: { result: AuthResult; domain: string | null };
  dkim: { result: AuthResult; domain: string | null; selector: string | null; aligned: boolean }[];
  dmarc: { result: AuthResult; domain: string | null; policy: 'none' | 'quarantine' | 'reject' | null };
  /** Why the spam verdict is `spam` ([] when it is not). */
  spam_reasons: string[];
}

const RESULTS: readonly AuthResult[] = ['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy'];

/** A verdict word from a checker, kept when known, else `neutral` (never trusted blindly). */
export function toAuthResult(value: unknown): AuthResult {
  return typeof value === 'string' && (RESULTS as readonly string[]).includes(value) ? (value as AuthResult) : 'neutral';
}

/** What is recorded when the checks could not run at all (a DNS outage, a message the checker rejects). */
export function uncheckedAuthentication(): Authentication {
  return { spf: { result: 'temperror', domain: null }, dkim: [], dmarc: { result: 'temperror', domain: null, policy: null }, spam_reasons: [] };
}
