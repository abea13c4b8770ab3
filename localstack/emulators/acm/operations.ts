/**
 * The ACM operations the emulator answers, by name (X-Amz-Target `CertificateManager.<Operation>`):
 * RequestCertificate (./request-certificate.ts), and here DescribeCertificate
 * (https://docs.aws.amazon.com/acm/latest/APIReference/API_DescribeCertificate.html), GetCertificate
 * (.../API_GetCertificate.html: the certificate and its chain once ISSUED, RequestInProgressException
 * before), DeleteCertificate (.../API_DeleteCertificate.html: "You cannot delete an ACM certificate that
 * is being used by another AWS service", ResourceInUseException) and ListCertificates
 * (.../API_ListCertificates.html: CertificateStatuses filter, MaxItems 1-1000, NextToken). A pending
 * certificate is checked against DNS whenever one of these looks at it (./validation.ts).
 */
import { constraintError, type AwsJsonOperation, type JsonObject } from '../aws-json';
import { certificateOf } from './certificate-arns';
import { certificateDetail, certificateSummary } from './certificate-view';
import { AcmError } from './errors';
import type { CertificateIssuer } from './issuer';
import { requestCertificate, type RequestContext } from './request-certificate';
import type { CertificateValidation } from './validation';

export interface AcmContext extends RequestContext {
  validation: CertificateValidation;
  issuer: CertificateIssuer;
}

const STATUSES = ['PENDING_VALIDATION', 'ISSUED', 'INACTIVE', 'EXPIRED', 'VALIDATION_TIMED_OUT', 'REVOKED', 'FAILED'];

function listCertificates(ctx: AcmContext, body: JsonObject): Promise<JsonObject> {
  const statuses = body.CertificateStatuses ?? [];
  if (!Array.isArray(statuses) || statuses.some((s) => !STATUSES.includes(String(s))))
    throw constraintError('CertificateStatuses', JSON.stringify(statuses), `Member must satisfy enum value set: [${STATUSES.join(', ')}]`);
  const max = body.MaxItems ?? 1000;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 1000)
    throw constraintError('MaxItems', max, 'Member must have value between 1 and 1000');
  const all = [...ctx.state.certificates.values()].sort(
    (a, b) => a.CreatedAt - b.CreatedAt || (a.CertificateArn < b.CertificateArn ? -1 : 1),
  );
  const start = body.NextToken === undefined ? 0 : Number(Buffer.from(String(body.NextToken), 'base64url').toString('utf8'));
  if (!Number.isInteger(start) || start < 0 || start > all.length) throw new AcmError('ValidationException', 'The NextToken is not valid.');
  return Promise.all(all.map((record) => ctx.validation.refresh(record))).then((records) => {
    const matching = records.filter((record) => statuses.length === 0 || statuses.includes(record.Status));
    const page = matching.slice(start, start + max);
    const next = start + max < matching.length ? Buffer.from(String(start + max)).toString('base64url') : undefined;
    return { CertificateSummaryList: page.map(certificateSummary), ...(next ? { NextToken: next } : {}) };
  });
}

export function acmOperations(ctx: AcmContext): Record<string, AwsJsonOperation> {
  const lookUp = (body: JsonObject) => ctx.validation.refresh(certificateOf(ctx.state, body, ctx.region, ctx.accountId));
  return {
    RequestCertificate: (body) => requestCertificate(ctx, body),
    DescribeCertificate: async (body) => ({ Certificate: certificateDetail(await lookUp(body), ctx.accountId) }),
    GetCertificate: async (body) => {
      const record = await lookUp(body);
      if (record.Status === 'PENDING_VALIDATION')
        throw new AcmError('RequestInProgressException', `Certificate ${record.CertificateArn} is not yet issued.`);
      if (record.Status !== 'ISSUED')
        throw new AcmError('InvalidArnException', `Certificate ${record.CertificateArn} is ${record.Status}.`);
      return { Certificate: record.certificatePem, CertificateChain: ctx.issuer.caPem };
    },
    DeleteCertificate: (body) => {
      const record = certificateOf(ctx.state, body, ctx.region, ctx.accountId);
      if (record.InUseBy.length > 0)
        throw new AcmError('ResourceInUseException', `Certificate ${record.CertificateArn} is in use by ${record.InUseBy.join(', ')}.`);
      ctx.state.certificates.delete(record.CertificateArn);
      ctx.state.save();
      return {};
    },
    ListCertificates: (body) => listCertificates(ctx, body),
  };
}
