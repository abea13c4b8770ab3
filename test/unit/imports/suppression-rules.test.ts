/** Suppression import rules (spec rules 1-3): classification, totals, and precedence by list order. */
import type { SourceSuppression, SourceSuppressionKind } from '#shared/domain/imports/source';
import { emptyPart, mergeParts } from '#shared/domain/imports/report';
import { classifySuppression, countSuppression, type SuppressionDecision } from '#shared/domain/imports/suppression-rules';

const entry = (kind: SourceSuppressionKind, email = 'ada@example.com', detail: string | null = null): SourceSuppression => ({
  email,
  kind,
  detail,
  created_at: null,
});

describe('classifySuppression', () => {
  it.each([
    ['hard_bounce', { action: 'suppress', email: 'ada@example.com', reason: 'bounce' }],
    ['invalid', { action: 'suppress', email: 'ada@example.com', reason: 'bounce' }],
    ['complaint', { action: 'suppress', email: 'ada@example.com', reason: 'complaint' }],
    ['unsubscribe', { action: 'suppress', email: 'ada@example.com', reason: 'unsubscribe' }],
    ['manual', { action: 'suppress', email: 'ada@example.com', reason: 'manual' }],
    ['scoped_opt_out', { action: 'opt_out', email: 'ada@example.com', category: 'product' }],
    ['block', { action: 'skip', email: 'ada@example.com', skipped_reason: 'blocked' }],
    ['soft_bounce', { action: 'skip', email: 'ada@example.com', skipped_reason: 'temporary_failure' }],
  ] as [SourceSuppressionKind, SuppressionDecision][])('%s -> %j', (kind, decision) => {
    expect(classifySuppression(entry(kind))).toEqual(decision);
  });

  it('trims and lower-cases the address', () => {
    expect(classifySuppression(entry('hard_bounce', '  Ada.Lovelace@Example.COM \n'))).toEqual({
      action: 'suppress',
      email: 'ada.lovelace@example.com',
      reason: 'bounce',
    });
  });

  it('skips an address that is not an email as invalid_address, with what was given (or null when nothing)', () => {
    expect(classifySuppression(entry('hard_bounce', 'Not An Address'))).toEqual({
      action: 'skip',
      email: 'not an address',
      skipped_reason: 'invalid_address',
    });
    expect(classifySuppression(entry('unsubscribe', 'a@b'))).toEqual({ action: 'skip', email: 'a@b', skipped_reason: 'invalid_address' });
    expect(classifySuppression(entry('scoped_opt_out', '   '))).toEqual({ action: 'skip', email: null, skipped_reason: 'invalid_address' });
  });

  it('skips a block or a temporary failure for that reason, whatever the address', () => {
    expect(classifySuppression(entry('block', 'garbage'))).toEqual({ action: 'skip', email: 'garbage', skipped_reason: 'blocked' });
    expect(classifySuppression(entry('soft_bounce', ''))).toEqual({ action: 'skip', email: null, skipped_reason: 'temporary_failure' });
  });

  it('never guesses a suppression from a kind it does not know', () => {
    expect(classifySuppression(entry('mystery' as SourceSuppressionKind))).toEqual({
      action: 'skip',
      email: 'ada@example.com',
      skipped_reason: 'unknown_kind',
    });
  });
});

describe('suppression counts', () => {
  const empty = () => emptyPart().suppressions;

  it('counts each entry once: found, one outcome, and the reason of what was imported', () => {
    let totals = empty();
    totals = countSuppression(totals, classifySuppression(entry('hard_bounce')), 'imported');
    totals = countSuppression(totals, classifySuppression(entry('complaint', 'b@example.com')), 'already_suppressed');
    totals = countSuppression(totals, classifySuppression(entry('scoped_opt_out', 'c@example.com')), 'imported');
    totals = countSuppression(totals, classifySuppression(entry('manual', 'd@example.com')), 'failed');
    totals = countSuppression(totals, classifySuppression(entry('block', 'e@example.com')));
    totals = countSuppression(totals, classifySuppression(entry('soft_bounce', 'f@example.com')));
    totals = countSuppression(totals, classifySuppression(entry('block', 'g@example.com')));
    expect(totals).toEqual({
      totals: {
        found: 7,
        imported: 2,
        already_suppressed: 1,
        skipped: 3,
        failed: 1,
        bounce: 1,
        complaint: 0,
        unsubscribe: 0,
        manual: 0,
        product_opt_out: 1,
      },
      skipped_reasons: { blocked: 2, temporary_failure: 1 },
      estimated: false,
    });
  });

  it('does not change the counts it is given', () => {
    const before = empty();
    countSuppression(before, classifySuppression(entry('block')));
    expect(before).toEqual(empty());
  });

  it('merges the reports of a chain of requests: counts and skipped reasons add, estimated if any part was', () => {
    const a = emptyPart();
    a.suppressions = {
      totals: { ...a.suppressions.totals, found: 3, imported: 2, bounce: 2, skipped: 1 },
      skipped_reasons: { blocked: 1 },
      estimated: false,
    };
    const b = emptyPart();
    b.suppressions = {
      totals: { ...b.suppressions.totals, found: 4, imported: 1, unsubscribe: 1, already_suppressed: 1, skipped: 2 },
      skipped_reasons: { blocked: 1, invalid_address: 1 },
      estimated: true,
    };
    expect(mergeParts([a, b]).suppressions).toEqual({
      totals: { ...empty().totals, found: 7, imported: 3, bounce: 2, unsubscribe: 1, already_suppressed: 1, skipped: 3 },
      skipped_reasons: { blocked: 2, invalid_address: 1 },
      estimated: true,
    });
    expect(mergeParts([a, a]).suppressions.estimated).toBe(false);
    expect(a.suppressions.skipped_reasons).toEqual({ blocked: 1 });
  });
});

describe('precedence by list order (rule 3)', () => {
  /** The store's conditional put: an address already suppressed keeps its record. */
  function walk(lists: SourceSuppression[][]) {
    const suppressed = new Map<string, string>();
    let totals = emptyPart().suppressions;
    for (const list of lists) {
      for (const item of list) {
        const decision = classifySuppression(item);
        if (decision.action !== 'suppress') {
          totals = countSuppression(totals, decision);
          continue;
        }
        const already = suppressed.has(decision.email);
        if (!already) suppressed.set(decision.email, decision.reason);
        totals = countSuppression(totals, decision, already ? 'already_suppressed' : 'imported');
      }
    }
    return { suppressed, totals };
  }

  it('a bounce or complaint walked first wins over a later unsubscribe of the same address, counted already_suppressed', () => {
    const bounces = [entry('hard_bounce', 'Ada@example.com')];
    const complaints = [entry('complaint', 'bob@example.com')];
    const unsubscribes = [
      entry('unsubscribe', 'ada@example.com'),
      entry('unsubscribe', 'BOB@example.com'),
      entry('unsubscribe', 'cy@example.com'),
    ];
    const { suppressed, totals } = walk([bounces, complaints, unsubscribes]);
    expect(Object.fromEntries(suppressed)).toEqual({
      'ada@example.com': 'bounce',
      'bob@example.com': 'complaint',
      'cy@example.com': 'unsubscribe',
    });
    expect(totals.totals).toMatchObject({ found: 5, imported: 3, already_suppressed: 2, bounce: 1, complaint: 1, unsubscribe: 1 });
  });

  it('re-running skips what is there: everything counts already_suppressed', () => {
    const lists = [[entry('hard_bounce')], [entry('unsubscribe', 'b@example.com')]];
    const first = walk(lists);
    const suppressed = first.suppressed;
    let totals = emptyPart().suppressions;
    for (const item of lists.flat()) {
      const decision = classifySuppression(item);
      if (decision.action === 'suppress')
        totals = countSuppression(totals, decision, suppressed.has(decision.email) ? 'already_suppressed' : 'imported');
    }
    expect(totals.totals).toMatchObject({ found: 2, imported: 0, already_suppressed: 2 });
  });
});
