/**
 * What the ACM emulator keeps of a certificate. Field names follow the API's CertificateDetail
 * (https://docs.aws.amazon.com/acm/latest/APIReference/API_CertificateDetail.html), so a view is mostly a
 * copy; times are epoch milliseconds here and epoch seconds on the wire (AWS JSON 1.1 timestamps).
 */

/** The statuses the emulator reaches (CertificateDetail.Status lists more: INACTIVE, EXPIRED, REVOKED, FAILED). */
export type CertificateStatus = 'PENDING_VALIDATION' | 'ISSUED' | 'VALIDATION_TIMED_OUT';

export interface CertificateRecord {
  CertificateArn: string;
  DomainName: string;
  /** DomainName first, then the other names asked for, without repeats. */
  SubjectAlternativeNames: string[];
  CreatedAt: number;
  Status: CertificateStatus;
  /** The request's IdempotencyToken and a digest of its arguments (the same token and arguments within an hour: this certificate again). */
  idempotency?: { token: string; arguments: string };
  /** Once ISSUED: the certificate's validity and serial, its PEM and its private key (never answered by the API). */
  IssuedAt?: number;
  NotBefore?: number;
  NotAfter?: number;
  Serial?: string;
  certificatePem?: string;
  privateKeyPem?: string;
  /** ARNs of the resources using the certificate (API Gateway custom domain names). */
  InUseBy: string[];
}

/** What the local cloud may read of an issued certificate (the API never hands out an Amazon-issued certificate's key). */
export interface IssuedCertificate {
  certificateArn: string;
  domainNames: string[];
  privateKeyPem: string;
  certificatePem: string;
  /** The emulator's CA certificate: the chain above the certificate. */
  chainPem: string;
}
