/** GET /v3/templates/{id}: one template with its versions' content; 404 when unknown. */
import { json, type Reply } from '../../types';
import { notFound } from '../errors';
import type { SendgridSeed } from '../seed';

export function getTemplate(_request: unknown, data: SendgridSeed, [id]: string[]): Reply {
  const t = (data.templates ?? []).find((x) => x.id === id);
  return t ? json(200, t) : notFound();
}
