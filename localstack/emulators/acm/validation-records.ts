/**
 * The CNAME record that validates a name by DNS
 * (https://docs.aws.amazon.com/acm/latest/userguide/dns-validation.html; the ResourceRecord of a
 * DomainValidation, https://docs.aws.amazon.com/acm/latest/APIReference/API_ResourceRecord.html):
 * `_<x>.<name>.` CNAME `_<y>.<z>.acm-validations.aws.`. ACM gives the same record for the same name in
 * the same account ("The CNAME record [...] is the same for every certificate requested for the domain
 * in your account", so one record keeps validating renewals and later requests): here a digest of the
 * account and the name. A wildcard name is validated by its parent's record (./domain-names.ts).
 */
import { createHash } from 'node:crypto';
import { validatedName } from './domain-names';

export interface ResourceRecord {
  Name: string;
  Type: 'CNAME';
  Value: string;
}

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');

export function validationRecord(accountId: string, name: string): ResourceRecord {
  const base = validatedName(name);
  const label = digest('name', accountId, base).slice(0, 32);
  const target = digest('value', accountId, base);
  // ACM's second label is ten lower-case letters (e.g. `_c3e2d7eaf1e656b73f46cd6980fdc0e.zdxcnfdgdz.acm-validations.aws.`).
  const letters = [...Buffer.from(target.slice(32, 52), 'hex')].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');
  return { Name: `_${label}.${base}.`, Type: 'CNAME', Value: `_${target.slice(0, 32)}.${letters}.acm-validations.aws.` };
}
