/**
 * A certificate as DescribeCertificate answers it (CertificateDetail,
 * https://docs.aws.amazon.com/acm/latest/APIReference/API_CertificateDetail.html, with one DomainValidation
 * per name, .../API_DomainValidation.html) and as ListCertificates sums it up (CertificateSummary,
 * .../API_CertificateSummary.html). Timestamps are epoch seconds (AWS JSON 1.1).
 */
import type { JsonObject } from '../aws-json';
import type { CertificateRecord } from './types';
import { validationRecord } from './validation-records';

const seconds = (ms: number | undefined) => (ms === undefined ? undefined : ms / 1000);

const VALIDATION_STATUS = { PENDING_VALIDATION: 'PENDING_VALIDATION', ISSUED: 'SUCCESS', VALIDATION_TIMED_OUT: 'FAILED' } as const;

export function certificateDetail(record: CertificateRecord, accountId: string): JsonObject {
  const issued = record.Status === 'ISSUED';
  return {
    CertificateArn: record.CertificateArn,
    DomainName: record.DomainName,
    SubjectAlternativeNames: record.SubjectAlternativeNames,
    DomainValidationOptions: record.SubjectAlternativeNames.map((name) => ({
      DomainName: name,
      ValidationDomain: name,
      ValidationStatus: VALIDATION_STATUS[record.Status],
      ResourceRecord: validationRecord(accountId, name),
      ValidationMethod: 'DNS',
    })),
    ...(issued ? { Serial: record.Serial, Subject: `CN=${record.DomainName}`, Issuer: 'Amazon' } : {}),
    CreatedAt: seconds(record.CreatedAt),
    ...(issued ? { IssuedAt: seconds(record.IssuedAt), NotBefore: seconds(record.NotBefore), NotAfter: seconds(record.NotAfter) } : {}),
    Status: record.Status,
    KeyAlgorithm: 'RSA_2048',
    SignatureAlgorithm: 'SHA256WITHRSA',
    InUseBy: record.InUseBy,
    Type: 'AMAZON_ISSUED',
    ...(issued
      ? {
          KeyUsages: [{ Name: 'DIGITAL_SIGNATURE' }, { Name: 'KEY_ENCIPHERMENT' }],
          ExtendedKeyUsages: [
            { Name: 'TLS_WEB_SERVER_AUTHENTICATION', OID: '1.3.6.1.5.5.7.3.1' },
            { Name: 'TLS_WEB_CLIENT_AUTHENTICATION', OID: '1.3.6.1.5.5.7.3.2' },
          ],
        }
      : {}),
    RenewalEligibility: issued && record.InUseBy.length > 0 ? 'ELIGIBLE' : 'INELIGIBLE',
    Options: { CertificateTransparencyLoggingPreference: 'ENABLED' },
  };
}

export function certificateSummary(record: CertificateRecord): JsonObject {
  const issued = record.Status === 'ISSUED';
  return {
    CertificateArn: record.CertificateArn,
    DomainName: record.DomainName,
    SubjectAlternativeNameSummaries: record.SubjectAlternativeNames,
    HasAdditionalSubjectAlternativeNames: false,
    Status: record.Status,
    Type: 'AMAZON_ISSUED',
    KeyAlgorithm: 'RSA-2048',
    InUse: record.InUseBy.length > 0,
    RenewalEligibility: issued && record.InUseBy.length > 0 ? 'ELIGIBLE' : 'INELIGIBLE',
    CreatedAt: seconds(record.CreatedAt),
    ...(issued ? { IssuedAt: seconds(record.IssuedAt), NotBefore: seconds(record.NotBefore), NotAfter: seconds(record.NotAfter) } : {}),
  };
}
