/** GET /v4/domains/{name}: the domain with its receiving and sending DNS records; 404 when unknown. */
import { json, type Reply } from '../../types';
import { withDomain } from '../domains';
import type { MailgunSeed } from '../seed';

export const getDomain = (_request: unknown, data: MailgunSeed, [name]: string[]): Reply =>
  withDomain(data, name, (x) =>
    json(200, { domain: x.domain, receiving_dns_records: x.receiving_dns_records, sending_dns_records: x.sending_dns_records }),
  );
