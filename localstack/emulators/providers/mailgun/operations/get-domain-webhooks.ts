/** GET /v3/domains/{domain}/webhooks: the domain's webhooks by event; 404 for an unknown domain. */
import { json, type Reply } from '../../types';
import { withDomain } from '../domains';
import type { MailgunSeed } from '../seed';

export const getDomainWebhooks = (_request: unknown, data: MailgunSeed, [name]: string[]): Reply =>
  withDomain(data, name, (x) => json(200, { webhooks: x.webhooks ?? {} }));
