/** Domains' mail hosts (MX, implicit MX, null MX) through the platform's DNS resolver, kept a minute: address validation and the send's `validate: true`. */
import { MailDomains } from '../usecases/address-validation/mail-domains';
import type { Platform } from './platform';

export function buildMailDomains({ dns }: Pick<Platform, 'dns'>) {
  return { mailDomains: new MailDomains(dns) };
}

export type MailDomainServices = ReturnType<typeof buildMailDomains>;
