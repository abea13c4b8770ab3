/**
 * Reputation figures: sent, bounced and complained emails of an account, a tenant or the whole deployment
 * over some days (per email, not per recipient; by the day the email was accepted, as the tenant stats:
 * shared/domain/tenants/stats.ts). Pure.
 */
export interface Figures {
  sent: number;
  bounced: number;
  complained: number;
}

export type Metric = 'bounce' | 'complaint';

export const NO_FIGURES: Figures = Object.freeze({ sent: 0, bounced: 0, complained: 0 });

export function sumFigures(days: readonly Figures[]): Figures {
  return days.reduce<Figures>(
    (sum, day) => ({ sent: sum.sent + day.sent, bounced: sum.bounced + day.bounced, complained: sum.complained + day.complained }),
    { ...NO_FIGURES },
  );
}

/** `from` without `part` (never below zero: counters of one unit are read a moment apart from the deployment's). */
export function withoutFigures(from: Figures, part: Figures): Figures {
  return {
    sent: Math.max(0, from.sent - part.sent),
    bounced: Math.max(0, from.bounced - part.bounced),
    complained: Math.max(0, from.complained - part.complained),
  };
}

/** The bad events of a metric. */
export function badOf(figures: Figures, metric: Metric): number {
  return metric === 'bounce' ? figures.bounced : figures.complained;
}

/** bounced / sent or complained / sent; 0 with nothing sent. */
export function rateOf(figures: Figures, metric: Metric): number {
  return figures.sent === 0 ? 0 : badOf(figures, metric) / figures.sent;
}

/** A rate as a percentage for people: 2 decimals at most ("4.17%", "0.09%"). */
export function percent(rate: number): string {
  return `${Number((rate * 100).toFixed(2))}%`;
}

/** The figures with their rates (6 decimals), as the account's pause and the account.paused event carry them. */
export function figuresView(figures: Figures) {
  const round = (n: number) => Number(n.toFixed(6));
  return { ...figures, bounce_rate: round(rateOf(figures, 'bounce')), complaint_rate: round(rateOf(figures, 'complaint')) };
}
