/** localstack/cloud/lambda/lambda-billing.ts: Lambda's duration billing (rounded up to 1 ms per invocation), per thread and added up. */
import { addBilling, billingSnapshot, recordInvocation } from '#localstack/cloud/lambda/lambda-billing';

describe('Lambda billing of the local cloud', () => {
  it('rounds each invocation up to the millisecond, at least 1 ms', () => {
    recordInvocation('unit-billed', 0.2);
    recordInvocation('unit-billed', 10.01);
    recordInvocation('unit-billed', 7);
    expect(billingSnapshot()['unit-billed']).toEqual({ invocations: 3, billed_ms: 1 + 11 + 7 });
  });

  it('adds up threads by function, and a snapshot is a copy', () => {
    const snapshot = billingSnapshot();
    snapshot['unit-billed']!.invocations = 99;
    expect(billingSnapshot()['unit-billed']!.invocations).toBe(3);
    expect(
      addBilling({ a: { invocations: 1, billed_ms: 5 } }, { a: { invocations: 2, billed_ms: 7 }, b: { invocations: 1, billed_ms: 1 } }),
    ).toEqual({
      a: { invocations: 3, billed_ms: 12 },
      b: { invocations: 1, billed_ms: 1 },
    });
  });
});
