/**
 * Static checks of the template (docs/deploy.md, "Static checks of the template"): cdk-nag's AwsSolutions
 * rules over the whole synthesised stack, with no finding left that is not acknowledged beside the
 * construct that causes it (infra/constructs/nag.ts). A failure lists every finding, its rule and the
 * construct path, so it says what to fix (or, if it is acceptable, where to acknowledge it and why).
 *
 * cdk-nag 3 is a CDK policy-validation plugin (errors and warnings are "violations" with a severity, not
 * annotations as in cdk-nag 2): the app is synthesised first, so aspects have run, and the pack then
 * walks the same construct tree (`validateScope`). A second test runs it the way `cdk synth` would, as a
 * plugin of the app (`Validations.of(app).addPlugins`), where any violation interrupts synthesis.
 */
import { Validations, type PolicyViolation } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { createStack, synth } from './helpers';

/** One line per finding: severity, rule (with the wildcard for IAM5), construct path, what the rule says. */
function listFindings(violations: PolicyViolation[]): string {
  return violations
    .flatMap((v) => v.violatingResources.map((r) => `${v.severity ?? 'error'} ${v.ruleName} at ${r.constructPath}: ${v.description}`))
    .join('\n');
}

const TLS_SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:smtp-tls-AbCdEf';

/**
 * The stack as deployed before the relay's certificate is given (an empty secret, no task), after, and sized for
 * a large deployment (docs/deploy.md, "Throughput ceilings": a pre-warmed table, the send worker sized from SES's
 * rate, the relay's scaling bound raised).
 */
const CONFIGURATIONS: [string, Record<string, unknown>][] = [
  ['default', {}],
  ["with the relay's TLS secret", { smtpTlsSecretArn: TLS_SECRET }],
  [
    'sized for a large deployment',
    { smtpTlsSecretArn: TLS_SECRET, tableWarmWrites: 40_000, tableWarmReads: 60_000, sesMaxSendRate: 5_000, smtpRelayMaxTasks: 40 },
  ],
  ['with the table provisioned and auto scaled', { tableCapacity: 'provisioned', tableWriteCapacity: '25:4000' }],
];

test.each(CONFIGURATIONS)('cdk-nag AwsSolutions (%s): no unacknowledged error or warning', (_name, context) => {
  const s = synth({ context });
  try {
    const report = new AwsSolutionsChecks().validateScope(s.app);
    const findings = report.violations.filter((v) => v.ruleName.startsWith('AwsSolutions-'));
    const errors = findings.filter((v) => v.severity !== 'warning');
    const warnings = findings.filter((v) => v.severity === 'warning');
    // The whole list in the message: a failing run says what to fix.
    expect({ errors: listFindings(errors), warnings: listFindings(warnings) }).toEqual({ errors: '', warnings: '' });
    expect(report.success).toBe(true);
  } finally {
    s.cleanup();
  }
});

test('as a validation plugin of the app (as `cdk synth` would run it), synthesis goes through', () => {
  const created = createStack();
  try {
    Validations.of(created.app).addPlugins(new AwsSolutionsChecks(created.app));
    expect(() => created.app.synth()).not.toThrow();
  } finally {
    created.cleanup();
  }
});
