/**
 * The ACM emulator through the real `@aws-sdk/client-acm`: DNS validation against a real DNS emulator up to
 * a real X.509 certificate chained to the emulator's CA, the validation window, idempotency, the name
 * rules, the quota, not found, delete in use, and the state across a restart.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DeleteCertificateCommand, GetCertificateCommand, ListCertificatesCommand, RequestCertificateCommand } from '@aws-sdk/client-acm';
import { accountId, describe_, issue, publishValidation, region, startAcm, type AcmRun } from './harness';

let run: AcmRun;
beforeEach(async () => {
  run = await startAcm();
});
afterEach(async () => {
  await run.stop();
});

const request = (input: Partial<ConstructorParameters<typeof RequestCertificateCommand>[0]>) =>
  run.client.send(new RequestCertificateCommand({ DomainName: 'mta-sts.inbound.example.com', ValidationMethod: 'DNS', ...input }));

async function errorOf(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('DNS validation', () => {
  it('stays PENDING_VALIDATION with its CNAME record until DNS shows it, then is ISSUED with a certificate for the name chained to the CA', async () => {
    const { CertificateArn } = await request({ IdempotencyToken: 'mta1' });
    expect(CertificateArn).toMatch(new RegExp(`^arn:aws:acm:${region}:${accountId}:certificate/[0-9a-f-]{36}$`));
    const pending = await describe_(run, CertificateArn!);
    expect(pending).toMatchObject({
      Status: 'PENDING_VALIDATION',
      DomainName: 'mta-sts.inbound.example.com',
      Type: 'AMAZON_ISSUED',
      InUseBy: [],
    });
    const [validation] = pending.DomainValidationOptions!;
    expect(validation).toMatchObject({
      DomainName: 'mta-sts.inbound.example.com',
      ValidationStatus: 'PENDING_VALIDATION',
      ValidationMethod: 'DNS',
    });
    expect(validation!.ResourceRecord).toEqual({
      Name: expect.stringMatching(/^_[0-9a-f]{32}\.mta-sts\.inbound\.example\.com\.$/),
      Type: 'CNAME',
      Value: expect.stringMatching(/^_[0-9a-f]{32}\.[a-z]{10}\.acm-validations\.aws\.$/),
    });
    expect(pending.NotAfter).toBeUndefined();

    // A wrong value does not validate.
    run.dns.setRecords({ name: validation!.ResourceRecord!.Name!, type: 'CNAME', values: ['_wrong.acm-validations.aws.'] });
    expect((await describe_(run, CertificateArn!)).Status).toBe('PENDING_VALIDATION');
    await publishValidation(run, CertificateArn!);
    const issued = await describe_(run, CertificateArn!);
    expect(issued).toMatchObject({ Status: 'ISSUED', Issuer: 'Amazon', KeyAlgorithm: 'RSA_2048' });
    expect(issued.DomainValidationOptions![0]!.ValidationStatus).toBe('SUCCESS');
    const days = (issued.NotAfter!.getTime() - issued.NotBefore!.getTime()) / 86_400_000;
    expect(days).toBe(395);

    const got = await run.client.send(new GetCertificateCommand({ CertificateArn }));
    const cert = new X509Certificate(got.Certificate!);
    expect(cert.subjectAltName).toBe('DNS:mta-sts.inbound.example.com');
    expect(cert.checkHost('mta-sts.inbound.example.com')).toBe('mta-sts.inbound.example.com');
    const ca = new X509Certificate(readFileSync(run.acm.caFile));
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(got.CertificateChain!.trim()).toBe(ca.toString().trim());
    expect(issued.Serial).toBe(cert.serialNumber.toLowerCase().match(/../g)!.join(':'));
    // The local cloud reads the key (the API never answers it); it belongs to the certificate.
    const local = run.acm.issuedCertificate(CertificateArn!)!;
    expect(cert.checkPrivateKey(require('node:crypto').createPrivateKey(local.privateKeyPem))).toBe(true);
  });

  it('gives the same validation record for the same name in the account, another for another name', async () => {
    const a = await request({});
    const b = await request({});
    const c = await request({ DomainName: 'mta-sts.inbound.example.org' });
    const recordOf = async (arn: string) => (await describe_(run, arn)).DomainValidationOptions![0]!.ResourceRecord;
    expect(await recordOf(a.CertificateArn!)).toEqual(await recordOf(b.CertificateArn!));
    expect(await recordOf(c.CertificateArn!)).not.toEqual(await recordOf(a.CertificateArn!));
  });

  it('times out after 72 hours pending (VALIDATION_TIMED_OUT), even if the record comes later', async () => {
    const { CertificateArn } = await request({});
    run.clock.offsetMs = 72 * 3600_000 - 60_000;
    expect((await describe_(run, CertificateArn!)).Status).toBe('PENDING_VALIDATION');
    run.clock.offsetMs = 72 * 3600_000;
    const timedOut = await describe_(run, CertificateArn!);
    expect(timedOut.Status).toBe('VALIDATION_TIMED_OUT');
    expect(timedOut.DomainValidationOptions![0]!.ValidationStatus).toBe('FAILED');
    await publishValidation(run, CertificateArn!);
    expect((await describe_(run, CertificateArn!)).Status).toBe('VALIDATION_TIMED_OUT');
  });
});

describe('RequestCertificate', () => {
  it('answers the same ARN for the same token and arguments within an hour, a new one after, or with other arguments', async () => {
    const first = await request({ IdempotencyToken: 'tok_1' });
    expect((await request({ IdempotencyToken: 'tok_1' })).CertificateArn).toBe(first.CertificateArn);
    expect((await request({ IdempotencyToken: 'tok_1', DomainName: 'mta-sts.inbound.example.net' })).CertificateArn).not.toBe(
      first.CertificateArn,
    );
    expect((await request({ IdempotencyToken: 'tok_2' })).CertificateArn).not.toBe(first.CertificateArn);
    run.clock.offsetMs = 3600_000;
    expect((await request({ IdempotencyToken: 'tok_1' })).CertificateArn).not.toBe(first.CertificateArn);
  });

  it.each([
    ['a label over 63 characters', `${'a'.repeat(64)}.example.com`],
    ['a single label', 'localhost'],
    ['a wildcard that is not the whole leftmost label', 'mta*.example.com'],
    ['two wildcards', '*.*.example.com'],
    ['a label starting with a hyphen', '-mta.example.com'],
    ['an empty label', 'mta..example.com'],
  ])('refuses %s (ValidationException)', async (_what, name) => {
    expect(await errorOf(request({ DomainName: name }))).toMatchObject({
      name: 'ValidationException',
      message: expect.stringContaining("at 'domainName' failed to satisfy constraint"),
    });
  });

  it('refuses a first name over 64 octets, a token off its pattern, a validation domain that is not the name or a parent, and validation by email', async () => {
    expect((await errorOf(request({ DomainName: `${'a'.repeat(60)}.example.com` }))).name).toBe('ValidationException');
    expect((await errorOf(request({ IdempotencyToken: 'not-a-word' }))).name).toBe('ValidationException');
    expect((await errorOf(request({ IdempotencyToken: 'x'.repeat(33) }))).name).toBe('ValidationException');
    const options = [{ DomainName: 'mta-sts.inbound.example.com', ValidationDomain: 'example.org' }];
    expect((await errorOf(request({ DomainValidationOptions: options }))).name).toBe('InvalidDomainValidationOptionsException');
    expect((await errorOf(request({ ValidationMethod: 'EMAIL' }))).name).toBe('InvalidParameterException');
  });

  it("accepts a wildcard name, validated by its parent's record, whose certificate covers one label", async () => {
    const arn = await issue(run, '*.inbound.example.com');
    const detail = await describe_(run, arn);
    expect(detail.DomainValidationOptions![0]!.ResourceRecord!.Name).toMatch(/^_[0-9a-f]{32}\.inbound\.example\.com\.$/);
    const cert = new X509Certificate(run.acm.issuedCertificate(arn)!.certificatePem);
    expect(cert.checkHost('mta-sts.inbound.example.com')).toBeDefined();
    expect(cert.checkHost('a.mta-sts.inbound.example.com')).toBeUndefined();
  });
});

describe('quota, not found, delete', () => {
  it('refuses a certificate past the account quota (LimitExceededException), and counts a deleted one no more', async () => {
    await run.stop();
    run = await startAcm({ certificateQuota: 2 });
    const first = await request({});
    await request({});
    expect((await errorOf(request({}))).name).toBe('LimitExceededException');
    await run.client.send(new DeleteCertificateCommand({ CertificateArn: first.CertificateArn }));
    expect((await request({})).CertificateArn).toBeDefined();
  });

  it("answers ResourceNotFoundException for an unknown ARN, InvalidArnException for another account's, ValidationException for no ARN", async () => {
    const unknown = `arn:aws:acm:${region}:${accountId}:certificate/00000000-0000-0000-0000-000000000000`;
    expect(await errorOf(describe_(run, unknown))).toMatchObject({
      name: 'ResourceNotFoundException',
      message: `Could not find certificate ${unknown}.`,
    });
    expect((await errorOf(run.client.send(new DeleteCertificateCommand({ CertificateArn: unknown })))).name).toBe(
      'ResourceNotFoundException',
    );
    expect((await errorOf(describe_(run, unknown.replace(accountId, '999999999999')))).name).toBe('InvalidArnException');
    expect(await errorOf(describe_(run, 'not an arn at all, really'))).toMatchObject({ name: 'ValidationException' });
  });

  it('refuses to delete a certificate in use (ResourceInUseException) until its use ends; GetCertificate of a pending one is RequestInProgressException', async () => {
    const arn = await issue(run, 'mta-sts.inbound.example.com');
    run.acm.addUse(arn, 'arn:aws:apigateway:us-east-1::/domainnames/mta-sts.inbound.example.com');
    expect((await describe_(run, arn)).InUseBy).toEqual(['arn:aws:apigateway:us-east-1::/domainnames/mta-sts.inbound.example.com']);
    expect((await errorOf(run.client.send(new DeleteCertificateCommand({ CertificateArn: arn })))).name).toBe('ResourceInUseException');
    run.acm.removeUse(arn, 'arn:aws:apigateway:us-east-1::/domainnames/mta-sts.inbound.example.com');
    await run.client.send(new DeleteCertificateCommand({ CertificateArn: arn }));
    expect((await errorOf(describe_(run, arn))).name).toBe('ResourceNotFoundException');
    // The name's record is still in DNS: a new certificate for it is issued at once, as ACM reuses the record.
    expect((await describe_(run, (await request({})).CertificateArn!)).Status).toBe('ISSUED');
    const pending = await request({ DomainName: 'mta-sts.inbound.example.org' });
    expect((await errorOf(run.client.send(new GetCertificateCommand({ CertificateArn: pending.CertificateArn })))).name).toBe(
      'RequestInProgressException',
    );
  });

  it('lists certificates, filtered by status and paged', async () => {
    const issued = await issue(run, 'mta-sts.inbound.example.com');
    const pending = (await request({ DomainName: 'mta-sts.inbound.example.org' })).CertificateArn!;
    const all = await run.client.send(new ListCertificatesCommand({}));
    expect(all.CertificateSummaryList!.map((c) => c.CertificateArn)).toEqual([issued, pending]);
    const onlyIssued = await run.client.send(new ListCertificatesCommand({ CertificateStatuses: ['ISSUED'] }));
    expect(onlyIssued.CertificateSummaryList!.map((c) => [c.CertificateArn, c.Status])).toEqual([[issued, 'ISSUED']]);
    const first = await run.client.send(new ListCertificatesCommand({ MaxItems: 1 }));
    const second = await run.client.send(new ListCertificatesCommand({ MaxItems: 1, NextToken: first.NextToken }));
    expect([first.CertificateSummaryList![0]!.CertificateArn, second.CertificateSummaryList![0]!.CertificateArn, second.NextToken]).toEqual(
      [issued, pending, undefined],
    );
  });
});

it('keeps certificates, their keys, uses and the CA across a restart on the same data dir', async () => {
  const arn = await issue(run, 'mta-sts.inbound.example.com');
  run.acm.addUse(arn, 'arn:aws:apigateway:us-east-1::/domainnames/mta-sts.inbound.example.com');
  const before = run.acm.issuedCertificate(arn)!;
  const caBefore = readFileSync(run.acm.caFile, 'utf8');
  await run.restart();
  expect(await describe_(run, arn)).toMatchObject({
    Status: 'ISSUED',
    InUseBy: ['arn:aws:apigateway:us-east-1::/domainnames/mta-sts.inbound.example.com'],
  });
  expect(run.acm.issuedCertificate(arn)).toEqual(before);
  expect(readFileSync(run.acm.caFile, 'utf8')).toBe(caBefore);
});
