/**
 * The spam verdict of a received message. There is no content scanner: the verdict comes from the
 * sender's authentication, which is what forgery (the usual harm to a support desk or a reply-by-email
 * flow) fails. `spam` when the From domain's DMARC policy asks to quarantine or reject and the message
 * fails DMARC, or when SPF fails hard and no DKIM signature passes; otherwise `not_spam`. Pure.
 */
import type { Authentication } from './authentication';

export type SpamStatus = 'not_spam' | 'spam';

export function spamVerdict(auth: Authentication): { status: SpamStatus; reasons: string[] } {
  const reasons: string[] = [];
  const dkimPassed = auth.dkim.some((signature) => signature.result === 'pass');
  if (auth.dmarc.result === 'fail' && (auth.dmarc.policy === 'reject' || auth.dmarc.policy === 'quarantine')) {
    reasons.push(`DMARC failed for ${auth.dmarc.domain ?? 'the From domain'}, whose policy is ${auth.dmarc.policy}`);
  }
  if (auth.spf.result === 'fail' && !dkimPassed)
    reasons.push(`SPF failed for ${auth.spf.domain ?? 'the sender'} and no DKIM signature passed`);
  return { status: reasons.length ? 'spam' : 'not_spam', reasons };
}
