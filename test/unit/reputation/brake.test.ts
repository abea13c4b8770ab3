/**
 * The reputation brake's policy (shared/domain/reputation/brake.ts): its settings, a table of cases, and the
 * property it exists for: over a simulated stream of sends, the brake keeps the deployment's rates under
 * AWS's review rates (5% bounces, 0.1% complaints) and never pauses a healthy account.
 */
import fc from 'fast-check';
import {
  AWS_REVIEW,
  brakeSettingsOf,
  DEFAULT_BRAKE,
  planBrake,
  type AccountCandidate,
  type BrakeInput,
  type BrakeSettings,
  type TenantCandidate,
} from '#shared/domain/reputation/brake';
import { NO_FIGURES, rateOf, sumFigures, type Figures } from '#shared/domain/reputation/figures';

const f = (sent: number, bounced = 0, complained = 0): Figures => ({ sent, bounced, complained });
const account = (id: string, figures: Figures, tenantFigures: Figures = NO_FIGURES): AccountCandidate => ({ id, figures, tenantFigures });
const tenant = (id: string, accountId: string, figures: Figures): TenantCandidate => ({ id, accountId, figures });
const units = (input: BrakeInput, settings: BrakeSettings = DEFAULT_BRAKE) =>
  planBrake(input, settings).map((pause) => `${pause.unit.kind}:${pause.unit.id}:${pause.rule}:${pause.metric}`);

describe('brakeSettingsOf', () => {
  it('keeps thresholds under AWS review rates and whole minimums, and names what it replaced', () => {
    expect(brakeSettingsOf({})).toEqual({ settings: DEFAULT_BRAKE, replaced: [] });
    expect(brakeSettingsOf({ bounceRate: 0.03, complaintRate: 0.0005, deploymentMinSent: 10, offenderMinSent: 4 })).toEqual({
      settings: { bounceRate: 0.03, complaintRate: 0.0005, deploymentMinSent: 10, offenderMinSent: 4 },
      replaced: [],
    });
    // At or over AWS's review rate, not a number, zero, fractional minimums: the default, named.
    const bad = brakeSettingsOf({ bounceRate: 0.05, complaintRate: Number.NaN, deploymentMinSent: 0, offenderMinSent: 2.5 });
    expect(bad.settings).toEqual(DEFAULT_BRAKE);
    expect(bad.replaced).toEqual(['bounceRate', 'complaintRate', 'deploymentMinSent', 'offenderMinSent']);
    expect(DEFAULT_BRAKE.bounceRate).toBeLessThan(AWS_REVIEW.bounceRate);
    expect(DEFAULT_BRAKE.complaintRate).toBeLessThan(AWS_REVIEW.complaintRate);
  });
});

describe('planBrake', () => {
  const healthy = account('acc_ok', f(20_000, 200, 2));

  it.each<[string, BrakeInput, string[]]>([
    [
      'a healthy deployment: nothing, even with an account at 4.5% under its review rate',
      { deployment: f(30_000, 600), accounts: [account('acc_a', f(1_000, 45)), healthy], tenants: [] },
      [],
    ],
    [
      'the deployment over the brake with too little volume: nothing',
      { deployment: f(999, 100), accounts: [account('acc_a', f(150, 90))], tenants: [] },
      [],
    ],
    [
      "an account over AWS's bounce review rate on its own, whatever the deployment",
      { deployment: f(100_000, 500), accounts: [account('acc_a', f(200, 11)), healthy], tenants: [] },
      ['account:acc_a:review_rate:bounce'],
    ],
    [
      "...not under the review rule's volume (199 sent)",
      { deployment: f(100_000, 500), accounts: [account('acc_a', f(199, 50))], tenants: [] },
      [],
    ],
    [
      "an account over AWS's complaint review rate from 1,000 sent",
      { deployment: f(100_000, 500, 10), accounts: [account('acc_a', f(1_000, 0, 2))], tenants: [] },
      ['account:acc_a:review_rate:complaint'],
    ],
    [
      'the deployment nearing 5%: the largest offender over 4% is enough',
      // 1,000 of 25,000 = 4%; without acc_big (190 of 4,000): 810 / 21,000 = 3.86%.
      {
        deployment: f(25_000, 1_000),
        accounts: [account('acc_small', f(1_000, 45)), account('acc_big', f(4_000, 190)), healthy],
        tenants: [],
      },
      ['account:acc_big:deployment_brake:bounce'],
    ],
    [
      'the deployment nearing 5%: offenders paused, most bounces first, until the rest is under 4%',
      // 1,200 / 25,000 = 4.8%; without acc_b (over AWS's 5% on its own): 1,000 / 23,000 = 4.35%; without acc_a (4.9%) too: 560 / 14,000 = 4%.
      {
        deployment: f(25_000, 1_200),
        accounts: [account('acc_a', f(9_000, 440)), account('acc_b', f(2_000, 200)), account('acc_c', f(3_000, 60)), healthy],
        tenants: [],
      },
      ['account:acc_b:review_rate:bounce', 'account:acc_a:deployment_brake:bounce'],
    ],
    [
      'a healthy account (at or under the brake) is never paused by it, whatever the deployment; one under the minimum volume only when critical',
      { deployment: f(10_000, 2_000), accounts: [account('acc_a', f(5_000, 200)), account('acc_b', f(50, 40))], tenants: [] },
      ['account:acc_b:deployment_brake:bounce'],
    ],
    [
      'under the minimum volume, the deployment nearing but not critical (4.2% < 4.5%): not paused',
      { deployment: f(10_000, 420), accounts: [account('acc_b', f(50, 40))], tenants: [] },
      [],
    ],
    [
      'a tenant driving the rate inside a healthy account: the tenant, not the account (judged on its emails of no tenant)',
      {
        deployment: f(20_000, 900),
        accounts: [account('acc_t', f(6_000, 390), f(1_000, 300))],
        tenants: [tenant('ten_bad', 'acc_t', f(400, 290)), tenant('ten_ok', 'acc_t', f(600, 10))],
      },
      ['tenant:ten_bad:deployment_brake:bounce'],
    ],
    [
      'a tie: the tenant first (it stops less mail)',
      {
        deployment: f(2_500, 100),
        accounts: [account('acc_x', f(1_000, 45)), account('acc_y', f(1_500, 50), f(1_000, 45))],
        tenants: [tenant('ten_y', 'acc_y', f(1_000, 45))],
      },
      ['tenant:ten_y:deployment_brake:bounce'],
    ],
    [
      "an account paused covers its tenants (and its tenants' bounces do not count as its own)",
      {
        deployment: f(3_000, 300),
        accounts: [account('acc_z', f(2_000, 250), f(1_000, 150))],
        tenants: [tenant('ten_z', 'acc_z', f(1_000, 150))],
      },
      ['account:acc_z:review_rate:bounce'],
    ],
    [
      'complaints: the deployment at 0.08% pauses the complainers',
      { deployment: f(50_000, 500, 45), accounts: [account('acc_c', f(800, 0, 30)), account('acc_d', f(20_000, 200, 10))], tenants: [] },
      ['account:acc_c:deployment_brake:complaint'],
    ],
  ])('%s', (_name, input, expected) => {
    expect(units(input)).toEqual(expected);
  });

  it('says why, with the figures, and keeps them', () => {
    const [pause] = planBrake({ deployment: f(25_000, 1_050), accounts: [account('acc_big', f(4_000, 600))], tenants: [] }, DEFAULT_BRAKE);
    expect(pause).toMatchObject({
      rule: 'review_rate',
      metric: 'bounce',
      threshold: 0.05,
      figures: f(4_000, 600),
      deployment: f(25_000, 1_050),
    });
    expect(pause!.reason).toBe("Account bounce rate 15% over 4000 emails sent in the last 2 UTC days, above AWS's 5% review rate.");
    const [braked] = planBrake(
      { deployment: f(25_000, 1_050), accounts: [account('acc_big', f(4_000, 190), f(100, 0))], tenants: [] },
      DEFAULT_BRAKE,
    );
    expect(braked!.reason).toBe(
      "Reputation brake: the deployment's bounce rate 4.2% over 25000 emails sent in the last 2 UTC days, at or over the brake's 4% (AWS reviews at 5%); this account's own bounce rate 4.87% over 3900 emails sent in the last 2 UTC days (its emails of no tenant), 190 of the deployment's 1050 bounces.",
    );
  });

  it('lowered settings (a test stack): small volumes count', () => {
    const settings = { ...DEFAULT_BRAKE, deploymentMinSent: 10, offenderMinSent: 4 };
    expect(
      units({ deployment: f(15, 5), accounts: [account('acc_bad', f(5, 5)), account('acc_ok', f(10, 0))], tenants: [] }, settings),
    ).toEqual(['account:acc_bad:deployment_brake:bounce']);
  });
});

/**
 * A simulated deployment: a few healthy accounts (bounces 1-3.9%, complaints under 0.07%) sending from the
 * start, and from step 20 a swarm of small offenders joining (each 20-50 emails a step, 190 at most: under
 * the review rule's 200, so only the deployment brake can stop them). Each step every active account sends;
 * its bounces and complaints arrive; the brake checks the accounts whose bad events the step counted, as
 * the stats worker does after a batch, and its pauses stop their sending from the next step. A step is a
 * sliver of the two-day window (as one stream batch is), so the brake acts before the rate runs away.
 */
interface Sender {
  id: string;
  volume: number;
  bounce: number;
  complaint: number;
  joins: number;
  cap: number;
  healthy: boolean;
}

function simulate(
  healthy: Omit<Sender, 'id' | 'joins' | 'cap' | 'healthy'>[],
  swarm: Omit<Sender, 'id' | 'cap' | 'healthy'>[],
  settings: BrakeSettings,
) {
  const senders: Sender[] = [
    ...healthy.map((s, i) => ({ ...s, id: `ok_${i}`, joins: 0, cap: Number.POSITIVE_INFINITY, healthy: true })),
    ...swarm.map((s, i) => ({ ...s, id: `bad_${i}`, cap: 190, healthy: false })),
  ];
  const totals = new Map(senders.map((s) => [s.id, { ...NO_FIGURES }]));
  const paused = new Set<string>();
  let worst = { bounce: 0, complaint: 0 };
  for (let step = 0; step < 100; step++) {
    const bad = new Set<string>();
    for (const sender of senders) {
      const total = totals.get(sender.id)!;
      const sent = Math.min(sender.cap, total.sent + sender.volume);
      if (step < sender.joins || paused.has(sender.id) || sent === total.sent) continue;
      const bounced = Math.floor(sent * sender.bounce);
      const complained = Math.floor(sent * sender.complaint);
      if (bounced > total.bounced || complained > total.complained) bad.add(sender.id);
      totals.set(sender.id, { sent, bounced, complained });
    }
    const deployment = sumFigures([...totals.values()]);
    if (step >= 20)
      worst = {
        bounce: Math.max(worst.bounce, rateOf(deployment, 'bounce')),
        complaint: Math.max(worst.complaint, rateOf(deployment, 'complaint')),
      };
    const accounts = [...bad].map((id) => account(id, totals.get(id)!));
    for (const pause of planBrake({ deployment, accounts, tenants: [] }, settings)) paused.add(pause.unit.id);
  }
  return { worst, healthyPaused: senders.filter((s) => s.healthy && paused.has(s.id)).map((s) => s.id) };
}

describe('the brake keeps the deployment under AWS review rates (simulated stream)', () => {
  const healthyArb = (volume: { min: number; max: number }) =>
    fc.array(
      fc.record({
        volume: fc.integer(volume),
        bounce: fc.double({ min: 0.01, max: 0.039, noNaN: true }),
        complaint: fc.double({ min: 0, max: 0.0007, noNaN: true }),
      }),
      { minLength: 3, maxLength: 6 },
    );
  const swarmArb = (bounce: { min: number; max: number }, complaint: { min: number; max: number }) =>
    fc.array(
      fc.record({
        volume: fc.integer({ min: 20, max: 50 }),
        bounce: fc.double({ ...bounce, noNaN: true }),
        complaint: fc.double({ ...complaint, noNaN: true }),
        joins: fc.integer({ min: 20, max: 80 }),
      }),
      { minLength: 20, maxLength: 120 },
    );
  const bouncers = fc.tuple(healthyArb({ min: 200, max: 800 }), swarmArb({ min: 0.2, max: 0.6 }, { min: 0, max: 0.001 }));
  const complainers = fc.tuple(healthyArb({ min: 500, max: 2_000 }), swarmArb({ min: 0, max: 0.03 }, { min: 0.005, max: 0.05 }));
  const options = { numRuns: 200, seed: 20261125 };
  const withoutDeploymentRule = { ...DEFAULT_BRAKE, deploymentMinSent: Number.MAX_SAFE_INTEGER };

  it('bounces: under 5% at every step, no healthy account paused', () => {
    fc.assert(
      fc.property(bouncers, ([healthy, swarm]) => {
        const { worst, healthyPaused } = simulate(healthy, swarm, DEFAULT_BRAKE);
        expect(worst.bounce).toBeLessThan(AWS_REVIEW.bounceRate);
        expect(healthyPaused).toEqual([]);
      }),
      options,
    );
  });

  it('bounces, the control: with the review rule alone the same streams cross 5%', () => {
    const result = fc.check(
      fc.property(bouncers, ([healthy, swarm]) => simulate(healthy, swarm, withoutDeploymentRule).worst.bounce < AWS_REVIEW.bounceRate),
      { ...options, endOnFailure: true },
    );
    expect(result.failed).toBe(true);
  });

  it('complaints: under 0.1% at every step, no healthy account paused', () => {
    fc.assert(
      fc.property(complainers, ([healthy, swarm]) => {
        const { worst, healthyPaused } = simulate(healthy, swarm, DEFAULT_BRAKE);
        expect(worst.complaint).toBeLessThan(AWS_REVIEW.complaintRate);
        expect(healthyPaused).toEqual([]);
      }),
      options,
    );
  });
});
