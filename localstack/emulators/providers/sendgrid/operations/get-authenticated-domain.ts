/** GET /v3/whitelabel/domains/{id}: one authenticated domain; 404 when unknown. */
import { json, type Reply } from '../../types';
import { notFound } from '../errors';
import type { SendgridSeed } from '../seed';

export function getAuthenticatedDomain(_request: unknown, data: SendgridSeed, [id]: string[]): Reply {
  const domain = (data.domains ?? []).find((x) => String(x.id) === id);
  return domain ? json(200, domain) : notFound();
}
