/**
 * What SendEmail owes to SES's suppression lists and feedback forwarding, in two steps: before the
 * outbox is planned, each recipient's outcome under the send's suppression policy (a listed address is
 * not sent); once the message is accepted, its hard bounces and complaints recorded on the policy's
 * list and the feedback mail put into the mailbox (suppression-list.ts, feedback-forwarding.ts).
 */
import type { FeedbackForwarding } from './feedback-forwarding';
import { outcomeFor, type RecipientOutcome } from './simulator';
import type { SuppressionList, SuppressionPolicy } from './suppression-list';
import type { ConfigurationSet, StoredMessage } from './types';

export interface BouncePlan {
  policy: SuppressionPolicy;
  /** For planOutbox: the outcome decided before the simulator's, if any. */
  outcomeOf: (address: string) => RecipientOutcome | undefined;
  /** Every recipient's final outcome. */
  outcomes: Map<string, RecipientOutcome>;
}

export class BounceAftermath {
  constructor(
    private readonly suppression: SuppressionList,
    private readonly feedback: FeedbackForwarding,
    private readonly outcomeDelayMs: number,
  ) {}

  plan(configSet: ConfigurationSet | undefined, tenantName: string | null, recipients: readonly string[]): BouncePlan {
    const policy = this.suppression.policyFor(configSet, tenantName);
    const outcomeOf = this.suppression.outcomeOf(policy);
    const outcomes = new Map(recipients.map((r) => [r, outcomeOf(r) ?? outcomeFor(r)]));
    // A Reject: SES delivered the message to nobody, so nothing bounced or complained.
    if ([...outcomes.values()].includes('reject')) outcomes.clear();
    return { policy, outcomeOf, outcomes };
  }

  async accepted(
    plan: BouncePlan,
    send: {
      message: StoredMessage;
      sourceAddress: string;
      returnPath: string | undefined;
      configSet: ConfigurationSet | undefined;
      acceptedAt: Date;
    },
  ): Promise<void> {
    const at = new Date(send.acceptedAt.getTime() + this.outcomeDelayMs);
    this.suppression.record(plan.policy, plan.outcomes, send.message.id, send.message.outbox, at);
    await this.feedback.forward({ ...send, outcomes: plan.outcomes, at });
  }
}
