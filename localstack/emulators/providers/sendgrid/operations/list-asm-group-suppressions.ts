/** GET /v3/asm/groups/{id}/suppressions: the group's addresses (not paginated); 404 when unknown. */
import { json, type Reply } from '../../types';
import { notFound } from '../errors';
import type { SendgridSeed } from '../seed';

export function listAsmGroupSuppressions(_request: unknown, data: SendgridSeed, [id]: string[]): Reply {
  const g = (data.asm_groups ?? []).find((x) => String(x.group.id) === id);
  return g ? json(200, g.suppressions) : notFound();
}
