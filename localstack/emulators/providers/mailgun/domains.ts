/** What several Mailgun operations share: the domain a path names (404 when unknown), templates without their versions. */
import type { Reply } from '../types';
import { message } from './errors';
import type { MailgunDomainSeed, MailgunSeed, MailgunTemplate } from './seed';

export function withDomain(data: MailgunSeed, name: string | undefined, answer: (domain: MailgunDomainSeed) => Reply): Reply {
  const wanted = (name ?? '').toLowerCase();
  const domain = data.domains.find((d) => d.domain.name.toLowerCase() === wanted);
  return domain ? answer(domain) : message(404, `Domain not found: ${name ?? ''}`);
}

export function summaries(templates: readonly MailgunTemplate[]): Omit<MailgunTemplate, 'versions'>[] {
  return templates.map(({ versions: _v, ...meta }) => meta);
}
