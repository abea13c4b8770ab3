/**
 * Which usage counters a send consumes and their limits (plan, and the sandbox sender's own caps).
 * Each recipient (to, cc and bcc) counts as one email, as providers bill. Days and months are UTC.
 * Pure: the store turns these into conditional ADDs in the send's transaction.
 */
import { PLANS, SANDBOX_LIMITS, type PlanName } from './plans';

export interface UsageReservation {
  /** `PLAN` (every send of the account) or `SANDBOX` (sends from the sandbox sender). */
  scope: 'PLAN' | 'SANDBOX';
  period: 'DAY' | 'MONTH';
  /** `2026-11-21` or `2026-11`. */
  periodValue: string;
  /** null: counted (for usage and billing) but not capped. */
  limit: number | null;
  /** When the period ends (ISO), for the error message and details.resets_at. */
  resetsAt: string;
  /** Epoch seconds after which the counter item may expire. */
  expiresAt: number;
}

function periods(now: Date) {
  const day = now.toISOString().slice(0, 10);
  const month = day.slice(0, 7);
  const nextDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { day, month, nextDay, nextMonth };
}

export function usageReservations(plan: PlanName, sandbox: boolean, now: Date): UsageReservation[] {
  const { day, month, nextDay, nextMonth } = periods(now);
  const limits = PLANS[plan];
  const keepDay = Math.floor(nextDay.getTime() / 1000) + 35 * 86400;
  const keepMonth = Math.floor(nextMonth.getTime() / 1000) + 400 * 86400;
  const reservations: UsageReservation[] = [
    { scope: 'PLAN', period: 'DAY', periodValue: day, limit: limits.dailyEmails, resetsAt: nextDay.toISOString(), expiresAt: keepDay },
    {
      scope: 'PLAN',
      period: 'MONTH',
      periodValue: month,
      limit: limits.monthlyHardCap ? limits.monthlyEmails : null,
      resetsAt: nextMonth.toISOString(),
      expiresAt: keepMonth,
    },
  ];
  if (sandbox) {
    reservations.push(
      { scope: 'SANDBOX', period: 'DAY', periodValue: day, limit: SANDBOX_LIMITS.dailyEmails, resetsAt: nextDay.toISOString(), expiresAt: keepDay },
      { scope: 'SANDBOX', period: 'MONTH', periodValue: month, limit: SANDBOX_LIMITS.monthlyEmails, resetsAt: nextMonth.toISOString(), expiresAt: keepMonth },
    );
  }
  return reservations;
}
