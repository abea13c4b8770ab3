/**
 * Stored health checks (docs/deliverability.md, "Domain health"): a check's findings merged with the
 * domain's last stored check. A finding is the same finding across checks when its type and check family
 * are (`findingKey`); it keeps the time it was first seen. One open before and gone now is `fixed` (kept
 * FIXED_KEPT_DAYS, then dropped); one that comes back is open again, first seen anew. What changed (opened,
 * fixed) is what `domain.health_changed` says. Pure.
 */
import type { HealthFinding } from './finding';
import type { HealthSummary } from './index';

/** A domain is checked again this long after its last check (a daily schedule). */
export const HEALTH_CHECK_EVERY_MS = 24 * 60 * 60 * 1000;
/** A fixed finding is still shown this long after it was fixed. */
export const FIXED_KEPT_DAYS = 7;

/** A finding as stored: when it was first seen (this time open), and when it was fixed (null while open). */
export type StoredFinding = HealthFinding & { first_seen_at: string; fixed_at: string | null };

export interface StoredHealth {
  checked_at: string;
  findings: StoredFinding[];
  summary: HealthSummary;
  /** Bumped by every stored check: the store's condition, and the id of the event it raised. */
  version: number;
}

export interface HealthChanges {
  opened: StoredFinding[];
  fixed: StoredFinding[];
}

export const findingKey = (finding: Pick<HealthFinding, 'type' | 'check'>): string => `${finding.check}:${finding.type}`;

/**
 * The stored check after `current` (a live check's findings, all open), and what changed since `previous`.
 * `dns_error` findings never count as changes, and a finding whose check could not run this time (a
 * `dns_error` of its family) stays as it was: a lookup that times out fixes nothing.
 */
export function mergeHealth(
  previous: StoredHealth | null,
  current: { checked_at: string; findings: readonly HealthFinding[]; summary: HealthSummary },
): { health: StoredHealth; changes: HealthChanges } {
  const now = current.checked_at;
  const before = new Map((previous?.findings ?? []).map((finding) => [findingKey(finding), finding]));
  const unchecked = new Set(current.findings.filter((finding) => finding.type === 'dns_error').map((finding) => finding.check));
  const opened: StoredFinding[] = [];
  const fixed: StoredFinding[] = [];
  const findings: StoredFinding[] = current.findings.map((finding) => {
    const earlier = before.get(findingKey(finding));
    const stillOpen = earlier && earlier.status === 'open';
    const stored: StoredFinding = { ...finding, status: 'open', first_seen_at: stillOpen ? earlier.first_seen_at : now, fixed_at: null };
    if (!stillOpen && finding.type !== 'dns_error') opened.push(stored);
    return stored;
  });
  const present = new Set(findings.map(findingKey));
  const keepFixedSince = Date.parse(now) - FIXED_KEPT_DAYS * 86_400_000;
  for (const earlier of previous?.findings ?? []) {
    if (present.has(findingKey(earlier))) continue;
    if (earlier.status === 'open' && unchecked.has(earlier.check) && earlier.type !== 'dns_error') {
      findings.push(earlier);
      continue;
    }
    if (earlier.status === 'open') {
      if (earlier.type === 'dns_error') continue;
      const gone: StoredFinding = { ...earlier, status: 'fixed', fixed_at: now };
      fixed.push(gone);
      findings.push(gone);
    } else if (earlier.fixed_at && Date.parse(earlier.fixed_at) >= keepFixedSince) {
      findings.push(earlier);
    }
  }
  findings.sort(byStatusThenImpact);
  const open = findings.filter((finding) => finding.status === 'open');
  const summary: HealthSummary = {
    ...current.summary,
    open: open.length,
    high: open.filter((finding) => finding.impact === 'high').length,
    low: open.filter((finding) => finding.impact === 'low').length,
  };
  return { health: { checked_at: now, findings, summary, version: (previous?.version ?? 0) + 1 }, changes: { opened, fixed } };
}

const rank = (finding: StoredFinding) => (finding.status === 'open' ? 0 : 2) + (finding.impact === 'high' ? 0 : 1);
const byStatusThenImpact = (a: StoredFinding, b: StoredFinding) => rank(a) - rank(b);

export const hasChanges = (changes: HealthChanges): boolean => changes.opened.length > 0 || changes.fixed.length > 0;
