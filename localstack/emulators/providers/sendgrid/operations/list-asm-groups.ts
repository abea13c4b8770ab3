/** GET /v3/asm/groups: every unsubscribe group with its count of suppressions (not paginated). */
import { json, type Reply } from '../../types';
import type { SendgridSeed } from '../seed';

export const listAsmGroups = (_request: unknown, data: SendgridSeed): Reply =>
  json(
    200,
    (data.asm_groups ?? []).map((g) => ({ ...g.group, unsubscribes: g.suppressions.length })),
  );
