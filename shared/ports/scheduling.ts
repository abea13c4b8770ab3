/** Ports: one-time schedules (EventBridge Scheduler in AWS: shared/adapters/aws/eventbridge-schedules.ts). */

/**
 * One-time schedules that deliver `{email_id, schedule_version}` to the send queue at a given time
 * (EventBridge Scheduler). Named after the email, so there is at most one per email.
 */
export interface EmailScheduler {
  /** Creates the email's schedule, or moves it when one exists. */
  upsert(emailId: string, at: Date, version: number): Promise<void>;
  /** Removes it; a schedule that already fired or never existed is not an error. */
  remove(emailId: string): Promise<void>;
}

/**
 * Wakes a waiting automation step (a delay's end, a wait's timeout): a one-time schedule that delivers
 * `{run_id, step_index, wake: true}` to the automation-steps queue at `at` (EventBridge Scheduler).
 */
export interface StepScheduler {
  /** Creates (or moves) the schedule of (run, step). */
  wakeAt(runId: string, stepIndex: number, at: Date): Promise<void>;
}
