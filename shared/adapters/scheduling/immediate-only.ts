/**
 * The scheduler of a function whose sends are never scheduled (the dashboard's test send and invitation
 * emails are built without `scheduled_at`): it holds no Scheduler grant, so a schedule asked of it is a
 * programming error, said as such rather than as an access denied from AWS.
 */
import type { EmailScheduler } from '../../ports/scheduling';

export class ImmediateSendsOnly implements EmailScheduler {
  constructor(private readonly who: string) {}

  async upsert(emailId: string): Promise<void> {
    throw new Error(`${this.who} sends now only (it holds no schedules grant): email ${emailId} asked for a schedule`);
  }

  /** Nothing of this function's was ever scheduled. */
  async remove(): Promise<void> {}
}
