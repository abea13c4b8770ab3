/**
 * The names a certificate may be requested for, as RequestCertificate takes them
 * (https://docs.aws.amazon.com/acm/latest/APIReference/API_RequestCertificate.html): DomainName and each
 * SubjectAlternativeNames member "Length Constraints: Minimum length of 1. Maximum length of 253", the
 * pattern below (labels of 1-63 letters, digits and hyphens, not starting or ending with a hyphen, at
 * least two labels, a wildcard only as the whole leftmost label), "The first domain name you enter cannot
 * exceed 64 octets, including periods"; at most 10 names per certificate (the ACM quotas page,
 * https://docs.aws.amazon.com/acm/latest/userguide/acm-limits.html: "Domain names per ACM certificate: 10").
 * And which host names a certificate covers (RFC 6125 section 6.4.3: a wildcard matches one whole label).
 */
import { constraintError, requiredString, type JsonObject } from '../aws-json';
import { AcmError } from './errors';

export const DOMAIN_NAME_PATTERN = /(\*\.)?(((?!-)[A-Za-z0-9-]{0,62}[A-Za-z0-9])\.)+((?!-)[A-Za-z0-9-]{1,62}[A-Za-z0-9])/;
const NAME_RULE = { min: 1, max: 253, pattern: DOMAIN_NAME_PATTERN };
const FIRST_NAME_MAX_OCTETS = 64;
export const MAX_NAMES_PER_CERTIFICATE = 10;

/** DomainName then the SubjectAlternativeNames, lower-cased (DNS names compare without case), without repeats. */
export function requestedNames(body: JsonObject): string[] {
  const domainName = requiredString(body, 'DomainName', NAME_RULE);
  if (domainName.length > FIRST_NAME_MAX_OCTETS) {
    throw new AcmError(
      'ValidationException',
      `The first domain name can't exceed ${FIRST_NAME_MAX_OCTETS} octets, including periods: '${domainName}' has ${domainName.length}.`,
    );
  }
  const sans = body.SubjectAlternativeNames;
  if (sans !== undefined && sans !== null && !Array.isArray(sans))
    throw new AcmError('ValidationException', 'SubjectAlternativeNames must be a list of strings.');
  const others = ((sans as unknown[] | undefined) ?? []).map((name, i) => {
    const member = `SubjectAlternativeNames.${i + 1}.member`;
    return requiredString({ [member]: name }, member, NAME_RULE);
  });
  if (others.length > MAX_NAMES_PER_CERTIFICATE) {
    throw constraintError(
      'SubjectAlternativeNames',
      `[${others.join(', ')}]`,
      `Member must have length less than or equal to ${MAX_NAMES_PER_CERTIFICATE}`,
    );
  }
  const names = [...new Set([domainName, ...others].map((name) => name.toLowerCase()))];
  if (names.length > MAX_NAMES_PER_CERTIFICATE)
    throw new AcmError('LimitExceededException', `A certificate can have at most ${MAX_NAMES_PER_CERTIFICATE} domain names.`);
  return names;
}

/** The name whose DNS record validates `name`: a wildcard's is its parent's (one record for `*.example.com` and `example.com`). */
export const validatedName = (name: string): string => name.replace(/^\*\./, '');

/** True when `names` (a certificate's) cover `host`: the same name, or a wildcard over its first label. */
export function coversHost(names: readonly string[], host: string): boolean {
  const wanted = host.toLowerCase().replace(/\.$/, '');
  return names.some(
    (name) => name === wanted || (name.startsWith('*.') && wanted.includes('.') && wanted.slice(wanted.indexOf('.') + 1) === name.slice(2)),
  );
}
