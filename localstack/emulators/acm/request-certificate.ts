/**
 * RequestCertificate (https://docs.aws.amazon.com/acm/latest/APIReference/API_RequestCertificate.html),
 * public certificates validated by DNS:
 * - the names as ./domain-names.ts reads them; ValidationMethod "Valid Values: EMAIL | DNS | HTTP", of
 *   which the emulator validates DNS only (EMAIL and HTTP, and an absent method, which ACM takes as EMAIL,
 *   are refused: InvalidParameterException, so nothing passes here that would not be validated in AWS);
 * - DomainValidationOptions: each DomainName one of the certificate's names and its ValidationDomain that
 *   name or a parent of it, else InvalidDomainValidationOptionsException;
 * - IdempotencyToken "Length Constraints: Minimum length of 1. Maximum length of 32. Pattern: \w+":
 *   "Idempotency tokens time out after one hour. Therefore, if you call RequestCertificate multiple times
 *   with the same idempotency token within one hour, ACM recognizes that you are requesting only one
 *   certificate and will issue only one" (the same arguments: the same certificate again);
 * - the account's quota of ACM certificates (https://docs.aws.amazon.com/acm/latest/userguide/acm-limits.html,
 *   "ACM certificates: 2,500" by default), counting every certificate the account holds:
 *   LimitExceededException;
 * - CertificateAuthorityArn (private certificates), KeyAlgorithm other than RSA_2048 and Tags are not
 *   emulated: InvalidParameterException.
 */
import { createHash } from 'node:crypto';
import { AwsJsonError, isJsonObject, optionalString, type JsonObject } from '../aws-json';
import { newCertificateArn } from './certificate-arns';
import { requestedNames } from './domain-names';
import { AcmError } from './errors';
import type { AcmState } from './state';
import type { CertificateRecord } from './types';

export const IDEMPOTENCY_WINDOW_MS = 60 * 60 * 1000;
export const DEFAULT_CERTIFICATE_QUOTA = 2500;

export interface RequestContext {
  state: AcmState;
  region: string;
  accountId: string;
  quota: number;
  now(): number;
}

function validationOptions(body: JsonObject, names: readonly string[]): JsonObject[] {
  const options = body.DomainValidationOptions;
  if (options === undefined || options === null) return [];
  if (!Array.isArray(options) || !options.every(isJsonObject))
    throw new AwsJsonError('SerializationException', 'DomainValidationOptions must be a list of objects.');
  for (const option of options) {
    const name = String(option.DomainName ?? '').toLowerCase();
    const domain = String(option.ValidationDomain ?? '').toLowerCase();
    if (!names.includes(name))
      throw new AcmError(
        'InvalidDomainValidationOptionsException',
        `DomainValidationOptions names ${name || '(nothing)'}, which is not a domain name of the certificate.`,
      );
    if (domain !== name.replace(/^\*\./, '') && !name.endsWith(`.${domain}`)) {
      throw new AcmError(
        'InvalidDomainValidationOptionsException',
        `ValidationDomain ${domain || '(nothing)'} must be ${name} or a superdomain of it.`,
      );
    }
  }
  return options;
}

export function requestCertificate(ctx: RequestContext, body: JsonObject): JsonObject {
  const names = requestedNames(body);
  const method = body.ValidationMethod;
  if (method !== 'DNS')
    throw new AcmError(
      'InvalidParameterException',
      `ValidationMethod ${method === undefined ? '(none: EMAIL)' : String(method)} is not emulated: the local ACM validates by DNS only.`,
    );
  for (const member of ['CertificateAuthorityArn', 'Tags'] as const) {
    if (body[member] !== undefined) throw new AcmError('InvalidParameterException', `${member} is not emulated by the local ACM.`);
  }
  if (body.KeyAlgorithm !== undefined && body.KeyAlgorithm !== 'RSA_2048')
    throw new AcmError('InvalidParameterException', `KeyAlgorithm ${String(body.KeyAlgorithm)} is not emulated: RSA_2048 only.`);
  const options = validationOptions(body, names);
  const token = optionalString(body, 'IdempotencyToken', { min: 1, max: 32, pattern: /\w+/ });
  const now = ctx.now();
  const args = createHash('sha256')
    .update(JSON.stringify([names, method, options, body.Options ?? null, body.KeyAlgorithm ?? null]))
    .digest('hex');
  if (token) {
    for (const record of ctx.state.certificates.values()) {
      if (record.idempotency?.token === token && record.idempotency.arguments === args && now - record.CreatedAt < IDEMPOTENCY_WINDOW_MS)
        return { CertificateArn: record.CertificateArn };
    }
  }
  if (ctx.state.certificates.size >= ctx.quota) {
    throw new AcmError('LimitExceededException', `Error: you have reached your limit of ${ctx.quota} certificates.`);
  }
  const record: CertificateRecord = {
    CertificateArn: newCertificateArn(ctx.region, ctx.accountId),
    DomainName: names[0]!,
    SubjectAlternativeNames: names,
    CreatedAt: now,
    Status: 'PENDING_VALIDATION',
    ...(token ? { idempotency: { token, arguments: args } } : {}),
    InUseBy: [],
  };
  ctx.state.certificates.set(record.CertificateArn, record);
  ctx.state.save();
  return { CertificateArn: record.CertificateArn };
}
