/**
 * Failed SMTP relay logins, counted in the table so every relay task shares them
 * (shared/doors/smtp/auth-throttle.ts has the rule). They are the API's rate-limit windows (./rate-limits.ts,
 * as the dashboard sign-in's): one item per subject (`ip:<address>`, `cred:<sha256>`) and fixed window,
 * named `smtpAuthFailures`, counted with `ADD #count :one` under `#count < :max` (or no count yet), so
 * DynamoDB admits at most `max` failures per subject and window however many tasks and sessions race: no
 * read-then-write; TTL after the window. What this adds is the read of the counts.
 */
import { windowOf, type RateLimit } from '../../domain/rate-limits';
import { batchGetItems } from './batch-get';
import { keys } from './keys';
import { RateLimitRepository } from './rate-limits';
import type { Table } from './table';

/** The rate-limit name of the windows (their key: RATELIMIT#<subject>#smtpAuthFailures). */
const NAME = 'smtpAuthFailures';

export class SmtpAuthFailureRepository {
  private readonly windows: RateLimitRepository;

  constructor(private readonly table: Table) {
    this.windows = new RateLimitRepository(table);
  }

  /** Failures counted in the window containing `nowMs` for each subject (0 when none), strongly consistent. */
  async counts(subjects: string[], rule: RateLimit, nowMs: number): Promise<number[]> {
    const keyOf = (subject: string) => keys.rateLimitWindow(subject, NAME, windowOf(rule, nowMs).start);
    const items = await batchGetItems(this.table, subjects.map(keyOf), { consistentRead: true });
    const byKey = new Map(items.map((item) => [item.PK as string, Number(item.count ?? 0)]));
    return subjects.map((subject) => byKey.get(keyOf(subject).PK) ?? 0);
  }

  /** Counts one failure of `subject` while it has fewer than `rule.limit` in the window: its count after, or null when it already had them. */
  async add(subject: string, rule: RateLimit, nowMs: number): Promise<number | null> {
    const decision = await this.windows.hit(subject, NAME, rule, nowMs);
    return decision.allowed ? rule.limit - decision.remaining : null;
  }
}
