/**
 * Certificate ARNs: `arn:aws:acm:<region>:<account>:certificate/<uuid>`
 * (https://docs.aws.amazon.com/acm/latest/APIReference/API_CertificateDetail.html), and the reading of a
 * request's CertificateArn: "Length Constraints: Minimum length of 20. Maximum length of 2048" and the
 * pattern below (ValidationException), an ARN of another service, region or account InvalidArnException,
 * and no such certificate ResourceNotFoundException ("Could not find certificate <arn>.").
 */
import { randomUUID } from 'node:crypto';
import { requiredString, type JsonObject } from '../aws-json';
import { AcmError } from './errors';
import type { AcmState } from './state';
import type { CertificateRecord } from './types';

const ARN_PATTERN = /arn:[\w+=/,.@-]+:acm:[\w+=/,.@-]*:[0-9]+:[\w+=,.@-]+(\/[\w+=,.@-]+)*/;

export const newCertificateArn = (region: string, accountId: string): string =>
  `arn:aws:acm:${region}:${accountId}:certificate/${randomUUID()}`;

export function certificateOf(state: AcmState, body: JsonObject, region: string, accountId: string): CertificateRecord {
  const arn = requiredString(body, 'CertificateArn', { min: 20, max: 2048, pattern: ARN_PATTERN });
  if (!arn.startsWith(`arn:aws:acm:${region}:${accountId}:certificate/`))
    throw new AcmError('InvalidArnException', `${arn} is not a valid certificate ARN of this account and region.`);
  const record = state.certificates.get(arn);
  if (!record) throw new AcmError('ResourceNotFoundException', `Could not find certificate ${arn}.`);
  return record;
}
