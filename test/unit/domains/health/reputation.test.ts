import { evaluateReputationHealth, REPUTATION_MIN_SENT, type ReputationFigures } from '#shared/domain/domains/health/reputation';

const account = (sent: number, bounced: number, complained: number, blocked_reputation = 0, blocked_content = 0): ReputationFigures => ({
  scope: { kind: 'account' },
  sent,
  bounced,
  complained,
  blocked_reputation,
  blocked_content,
});
const types = (figures: ReputationFigures) =>
  evaluateReputationHealth({ domain: 'ex.com', figures })?.map((f) => [f.type, f.impact]) ?? null;

describe('the reputation check: bounce and complaint rates against the published thresholds', () => {
  it.each([
    ['clean', account(10_000, 100, 5), []],
    ['complaints at 0.1% (Google: stay below)', account(10_000, 0, 10), [['complaint_rate_elevated', 'low']]],
    ['complaints just under 0.1%', account(10_000, 0, 9), []],
    ['complaints at 0.3% (never reach)', account(10_000, 0, 30), [['complaint_rate_high', 'high']]],
    ['bounces at 2% (SES: stay below)', account(10_000, 200, 0), [['bounce_rate_elevated', 'low']]],
    ['bounces at 5% (SES review)', account(10_000, 500, 0), [['bounce_rate_high', 'high']]],
    [
      'both high',
      account(1_000, 80, 4),
      [
        ['complaint_rate_high', 'high'],
        ['bounce_rate_high', 'high'],
      ],
    ],
    ['5 reputation blocks of 1,000 (0.5%)', account(1_000, 5, 0, 5, 0), [['reputation_blocks', 'high']]],
    ['4 reputation blocks: too few', account(1_000, 4, 0, 4, 0), []],
    ['5 reputation blocks of 2,000 (0.25%): too small a part', account(2_000, 5, 0, 5, 0), []],
    ['content blocks', account(1_000, 10, 0, 0, 10), [['content_blocks', 'low']]],
  ])('%s', (_name, figures, expected) => {
    expect(types(figures)).toEqual(expected);
  });

  it(`judges nothing under ${REPUTATION_MIN_SENT} emails (the check is skipped)`, () => {
    expect(types(account(REPUTATION_MIN_SENT - 1, 50, 10))).toBeNull();
    expect(types(account(REPUTATION_MIN_SENT, 50, 10))).toEqual([
      ['complaint_rate_high', 'high'],
      ['bounce_rate_high', 'high'],
    ]);
  });

  it("names whose emails and the rate: a tenant's domain is judged on its tenant's emails", () => {
    const [found] = evaluateReputationHealth({
      domain: 'ex.com',
      figures: {
        scope: { kind: 'tenant', tenant: 'acme' },
        sent: 400,
        bounced: 24,
        complained: 0,
        blocked_reputation: 0,
        blocked_content: 0,
      },
    })!;
    expect(found!.message).toContain("Bounce rate 6% over 400 of tenant acme's emails accepted in the last 7 days");
    expect(found!.docs_url).toBe('https://docs.aws.amazon.com/ses/latest/dg/faqs-enforcement.html');
    expect(found!.record).toBeUndefined();
  });
});
