/**
 * SCHEDULED_TASKS on the local cloud: each task's real handler on a timer (the EventBridge rule's
 * stand-in), one pass at a time (the next pass starts `everyMs` after the previous one ended). Keeps what
 * `/health` reports: passes, the last report and running totals of its numeric fields (re-drives).
 *
 * A pass still running at the function's Timeout fails at the timeout, as the rule's (asynchronous)
 * invocation does on AWS (../lambda/lambda-timeout.ts): a failed pass, logged with Lambda's "Task timed out after"
 * line. On AWS, Lambda would retry a failed asynchronous invocation twice, about 1 and 2 minutes later
 * (https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-error-handling.html; the template sets no
 * AWS::Lambda::EventInvokeConfig); the local runner does not: the next pass is the next timer's, as with a
 * pass that throws (docs/local-cloud/template.md).
 */
import { invokeWithinTimeout } from '../lambda/lambda-timeout';

export type TaskHandler = () => Promise<unknown>;

export interface TaskStatus {
  state: 'up' | string;
  passes: number;
  last_pass_at: string | null;
  last_report: unknown;
  /** Sums over every pass of the numeric fields of the reports (e.g. redriven_queued). */
  totals: Record<string, number>;
}

export class ScheduledTaskRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly current: TaskStatus = { state: 'up', passes: 0, last_pass_at: null, last_report: null, totals: {} };

  constructor(
    private readonly options: {
      name: string;
      handler: TaskHandler;
      everyMs: number;
      timeoutSeconds: number;
      log: (message: string) => void;
    },
  ) {}

  start(): void {
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.startPass(), this.options.everyMs);
    this.timer.unref?.();
  }

  /** A pass now, the one running until it ends; then the timer counts from its end. */
  private startPass(): Promise<void> {
    this.running = this.pass().finally(() => {
      this.running = undefined;
      this.schedule();
    });
    return this.running;
  }

  private async pass(): Promise<void> {
    try {
      const { name, timeoutSeconds, handler, log } = this.options;
      const report = await invokeWithinTimeout({ name, timeoutSeconds }, () => handler(), log);
      this.current.passes++;
      this.current.last_pass_at = new Date().toISOString();
      this.current.last_report = report;
      this.current.state = 'up';
      if (report && typeof report === 'object') {
        for (const [field, value] of Object.entries(report)) {
          if (typeof value === 'number') this.current.totals[field] = (this.current.totals[field] ?? 0) + value;
        }
      }
    } catch (error) {
      this.current.state = `down: ${(error as Error).message}`;
      this.options.log(`${this.options.name}: pass failed: ${(error as Error).stack ?? String(error)}`);
    }
  }

  /**
   * A pass now, on request (`POST /_local/tasks/<name>/run`: a test waiting for the reconciler asks for its pass
   * instead of waiting for the timer): after the one running, if any, so passes never overlap; the timer then
   * counts from this pass's end. Its report, or the state it left (`down: ...`) when it failed.
   */
  async runNow(): Promise<TaskStatus> {
    while (this.running) await this.running;
    clearTimeout(this.timer);
    await this.startPass();
    return this.status();
  }

  status(): TaskStatus {
    return structuredClone(this.current);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

/**
 * A task's local period: LOCAL_TASK_PERIOD_MS overrides the definition's, as a number of ms for every task
 * (`2000` in the kill test), `<task>=<ms>` entries for one task each, or both (`4000,reconciler=15000` on the
 * shared test stack: its tests ask for the reconciler's passes, `POST /_local/tasks/reconciler/run`, but wait on
 * the domain-health task's timer). An entry that is not a whole number above 0 is ignored.
 */
export function localTaskPeriod(defaultMs: number, env: NodeJS.ProcessEnv, name = ''): number {
  let every: number | undefined;
  let own: number | undefined;
  for (const entry of (env.LOCAL_TASK_PERIOD_MS ?? '').split(',')) {
    const [first, second] = entry.trim().split('=');
    const ms = Number(second ?? first);
    if (!Number.isInteger(ms) || ms <= 0 || first === '') continue;
    if (second === undefined) every = ms;
    else if (first === name) own = ms;
  }
  return own ?? every ?? defaultMs;
}
