/** GET /v3/asm/groups/{id}: one unsubscribe group with its count of suppressions; 404 when unknown. */
import { json, type Reply } from '../../types';
import { notFound } from '../errors';
import type { SendgridSeed } from '../seed';

export function getAsmGroup(_request: unknown, data: SendgridSeed, [id]: string[]): Reply {
  const g = (data.asm_groups ?? []).find((x) => String(x.group.id) === id);
  return g ? json(200, { ...g.group, unsubscribes: g.suppressions.length }) : notFound();
}
