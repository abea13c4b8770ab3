/** bench/lib/cost/price-usage.ts: what a phase metered, priced per million delivered emails by service. */
import { priceUsage } from '#bench/lib/cost/price-usage';
import { PRICES } from '#bench/lib/cost/prices';

const line = (cost: ReturnType<typeof priceUsage>, service: string) => cost.lines.find((entry) => entry.service === service)!;

describe('pricing metered usage', () => {
  const usage = {
    emails: 100,
    calls: {
      'product\tSQS\tSendMessageBatch': 10,
      'emulator\tSNS\tPublish': 100,
      'local-cloud\tSNS\tPublish': 50,
      'product\tS3\tPutObject': 100,
      'product\tS3\tGetObject': 100,
      'product\tS3\tDeleteObject': 100,
      'product\tKMS\tDecrypt': 2,
      'product\tSES\tSendEmail': 100,
      'event-source\tDynamoDB Streams\tGetRecords': 500,
    },
    failures: { 'product\tDynamoDB\tUpdateItem': 10 },
    units: {
      'product\tDynamoDB\tWRU table': 1000,
      'product\tDynamoDB\tWRU GSI1': 800,
      'product\tDynamoDB\tRRU table': 400,
      'local-cloud\tDynamoDB\tWRU table': 99_999,
      'product\tSQS\trequests': 200,
      'event-source\tSQS\trequests': 100,
      'product\tS3\tPUT bytes': 100 * 2048,
      'product\tCloudWatch Logs\tbytes': 100 * 150,
      'local-cloud\tCloudWatch Logs\tbytes': 1_000_000,
    },
    lambda: {
      emails: { invocations: 100, billed_ms: 3000, memory_mb: 1024 },
      'send-email': { invocations: 10, billed_ms: 2000, memory_mb: 512 },
    },
    apiRequests: 100,
  };
  const cost = priceUsage(usage);

  it("prices DynamoDB from the capacity reported, every index, plus a write unit per refused condition; not the local cloud's", () => {
    // (1000 + 800 + 10) WRU over 100 emails = 18.1 WRU each.
    expect(line(cost, 'DynamoDB writes').perMillion).toBeCloseTo(18.1 * PRICES.dynamoWriteUnit.usd * 1e6, 6);
    expect(line(cost, 'DynamoDB writes').measure).toContain('GSI1 8');
    expect(line(cost, 'DynamoDB reads').perMillion).toBeCloseTo(4 * PRICES.dynamoReadUnit.usd * 1e6, 6);
  });

  it("prices Lambda by requests and by GB-seconds at each function's memory", () => {
    expect(line(cost, 'Lambda requests').perMillion).toBeCloseTo(1.1 * 0.2, 6);
    // 3 s at 1 GB + 2 s at 0.5 GB = 4 GB-s over 100 emails.
    expect(line(cost, 'Lambda duration').perMillion).toBeCloseTo(0.04 * PRICES.lambdaArmGbSecond.usd * 1e6, 6);
  });

  it('counts SQS in 64 KB requests of every billed origin, SNS publishes AWS makes for us, S3 by request class', () => {
    expect(line(cost, 'SQS').perMillion).toBeCloseTo(3 * 0.4, 6);
    expect(line(cost, 'SNS').perMillion).toBeCloseTo(1 * 0.5, 6);
    expect(line(cost, 'S3 requests').perMillion).toBeCloseTo(1 * 5 + 1 * 0.4, 6);
    expect(line(cost, 'S3 requests').measure).toContain('2 KB stored');
    expect(line(cost, 'KMS').perMillion).toBeCloseTo(0.02 * 3, 6);
  });

  it("prices CloudWatch Logs: the product's lines as metered, and Lambda's START/END/REPORT for each invocation", () => {
    // 150 B of ours and 1.1 invocations x 300 B per email: 480 B an email, at $0.50 per GB.
    const logs = line(cost, 'CloudWatch Logs');
    expect(logs.measure).toBe("480 bytes (our lines 150, Lambda's START/END/REPORT 330)");
    expect(logs.perMillion).toBeCloseTo(((480 * 1_000_000) / 1024 ** 3) * PRICES.cloudwatchLogsIngestedGb.usd, 6);
  });

  it("keeps SES's own charge out of the total and shows it beside", () => {
    expect(cost.ses).toBeCloseTo(100, 6);
    // SES's Essentials plan (the default for accounts new since 2026-07-21): $0.16 per 1,000.
    expect(cost.sesEssentials).toBeCloseTo(160, 6);
    expect(cost.beyondSes).toBeCloseTo(
      cost.lines.reduce((sum, entry) => sum + entry.perMillion, 0),
      9,
    );
    expect(line(cost, 'API Gateway').perMillion).toBeCloseTo(1, 6);
  });

  it('prices the table in provisioned mode too: each unit as capacity-hours at 70% use, the rest unchanged', () => {
    // 18.1 WRU and 4 RRU an email: $0.625 and $0.125 per million on demand; $0.00065 and $0.00013 per unit-hour provisioned.
    const onDemand = 18.1 * 0.625 + 4 * 0.125;
    const provisioned = ((18.1 * 0.00065 + 4 * 0.00013) / 3600 / 0.7) * 1e6;
    expect(cost.beyondSesProvisioned).toBeCloseTo(cost.beyondSes - onDemand + provisioned, 6);
    // About 2.4 times cheaper per unit.
    expect(onDemand / provisioned).toBeGreaterThan(2.3);
  });
});
