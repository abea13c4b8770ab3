/**
 * Recording an open (the pixel) or a click (the redirect) of a resolved link (docs/tracking.md).
 *
 * The email is read (consistent GetItem) for its delivery time and last event; the hit is classified
 * (shared/domain/tracking/machine.ts). A human hit sets opened_at / clicked_at where still absent and
 * advances last_event to opened / clicked (ranked between delivered and bounced: outcomes.ts), in one
 * conditional UpdateItem; the status never moves. A machine hit changes nothing on the email. Either way
 * ONE email.opened / email.clicked event is published per hit (its occurrence is the hit's id), marked
 * `machine` with the reasons, and `first` when this hit set the timestamp.
 *
 * An email that no longer exists (or is another account's) records nothing and publishes nothing: the
 * caller still answers the pixel or the redirect.
 */
import { EVENT_RANK } from '../../domain/emails/outcomes';
import type { ClickLink, OpenLink } from '../../domain/links/link-urls';
import { classifyHit, type HitClassification, type HitKind } from '../../domain/tracking/machine';
import { emailEvent } from '../../domain/webhooks/email-event-data';
import type { Clock } from '../../ports/clock';
import type { EventPublisher } from '../../ports/events';
import type { EmailOutcomes } from '../../adapters/store/emails/outcomes';
import type { EmailReads } from '../../adapters/store/emails/read';

export interface TrackDeps {
  emails: Pick<EmailReads, 'get'> & Pick<EmailOutcomes, 'recordEngagement'>;
  events: EventPublisher;
  clock: Clock;
}

/** The request that made the hit. */
export interface Hit {
  /** Unique per hit (the request id): each hit is one event. */
  id: string;
  method: string;
  userAgent: string | null;
  ip: string | null;
}

export type TrackResult = { recorded: false } | ({ recorded: true; first: boolean } & HitClassification);

export type TrackedLink = { kind: 'open'; link: OpenLink } | { kind: 'click'; link: ClickLink };

export async function trackHit(deps: TrackDeps, tracked: TrackedLink, hit: Hit): Promise<TrackResult> {
  const { link } = tracked;
  const stored = await deps.emails.get(link.emailId);
  if (!stored || stored.email.account_id !== link.accountId) return { recorded: false };
  const now = deps.clock.now();
  const at = now.toISOString();
  const kind: HitKind = tracked.kind;
  const classification = classifyHit({
    method: hit.method,
    userAgent: hit.userAgent,
    ip: hit.ip,
    at: now,
    deliveredAt: stored.email.delivered_at,
    sentAt: stored.email.sent_at,
    kind,
  });

  let email = stored.email;
  let first = false;
  if (!classification.machine) {
    const event = kind === 'open' ? 'opened' : 'clicked';
    const lastRank = EVENT_RANK[email.last_event as keyof typeof EVENT_RANK];
    const advance = lastRank === undefined || lastRank < EVENT_RANK[event];
    const recorded = await deps.emails.recordEngagement(email.id, link.accountId, event, at, advance);
    // Deleted between the read and the write: nothing more to record.
    if (!recorded) return { recorded: false };
    email = recorded.email;
    first = recorded.first;
  }

  const type = kind === 'open' ? 'email.opened' : 'email.clicked';
  await deps.events.publish([
    emailEvent(email, type, at, {
      occurrence: hit.id,
      extra: {
        ...(kind === 'open' ? { opened_at: at } : { clicked_at: at, link: (link as ClickLink).url }),
        user_agent: hit.userAgent,
        ip_address: hit.ip,
        machine: classification.machine,
        machine_reasons: classification.reasons,
        first,
      },
    }),
  ]);
  return { recorded: true, first, ...classification };
}
