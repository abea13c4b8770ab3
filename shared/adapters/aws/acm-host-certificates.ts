/**
 * The HostCertificates port over ACM (https://docs.aws.amazon.com/acm/latest/APIReference/): a public
 * certificate per hosted MTA-STS policy host, DNS-validated. ACM makes the validation record a few seconds
 * after the request (DescribeCertificate's DomainValidationOptions[].ResourceRecord), keeps trying to validate
 * for 72 hours (then VALIDATION_TIMED_OUT), and refuses to delete a certificate an API Gateway custom domain
 * name still uses (ResourceInUseException).
 */
import { DeleteCertificateCommand, DescribeCertificateCommand, RequestCertificateCommand, type ACMClient } from '@aws-sdk/client-acm';
import { HostingQuotaError, type HostCertificate, type HostCertificates } from '../../ports/hosting';

const errorName = (error: unknown) => (error as { name?: string } | null)?.name ?? '';

export class AcmHostCertificates implements HostCertificates {
  constructor(private readonly acm: ACMClient) {}

  async request(host: string, token: string): Promise<{ arn: string }> {
    try {
      const { CertificateArn } = await this.acm.send(
        new RequestCertificateCommand({ DomainName: host, ValidationMethod: 'DNS', IdempotencyToken: token }),
      );
      if (!CertificateArn) throw new Error(`ACM answered no certificate ARN for ${host}`);
      return { arn: CertificateArn };
    } catch (error) {
      // https://docs.aws.amazon.com/acm/latest/userguide/acm-limits.html: certificates per account, and requested per year.
      if (errorName(error) === 'LimitExceededException') {
        throw new HostingQuotaError(
          `ACM refused a certificate for ${host}: the AWS account reached its ACM certificates quota (${(error as Error).message}). Ask AWS for a higher "ACM certificates" quota, or remove hosted policies no longer used.`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  async describe(arn: string): Promise<HostCertificate | null> {
    try {
      const { Certificate } = await this.acm.send(new DescribeCertificateCommand({ CertificateArn: arn }));
      if (!Certificate) return null;
      const option = Certificate.DomainValidationOptions?.[0];
      const record = option?.ResourceRecord;
      const validationRecord =
        record?.Name && record.Value ? { name: record.Name.replace(/\.$/, ''), value: record.Value.replace(/\.$/, '') } : null;
      switch (Certificate.Status) {
        case 'ISSUED':
          return { status: 'issued', failure: null, validationRecord };
        case 'PENDING_VALIDATION':
          return { status: 'pending', failure: null, validationRecord };
        default:
          return {
            status: 'failed',
            failure: `${Certificate.Status ?? 'unknown status'}${Certificate.FailureReason ? ` (${Certificate.FailureReason})` : ''}`,
            validationRecord,
          };
      }
    } catch (error) {
      if (errorName(error) === 'ResourceNotFoundException') return null;
      throw error;
    }
  }

  async remove(arn: string): Promise<'deleted' | 'in_use'> {
    try {
      await this.acm.send(new DeleteCertificateCommand({ CertificateArn: arn }));
      return 'deleted';
    } catch (error) {
      if (errorName(error) === 'ResourceNotFoundException') return 'deleted';
      if (errorName(error) === 'ResourceInUseException') return 'in_use';
      throw error;
    }
  }
}
