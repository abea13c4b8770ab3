/**
 * GET /v3/{domain}/bounces|complaints|unsubscribes|whitelists: limit 1..1000 (default 100), ordered by
 * address; page=first|next|previous|last with the `address` pivot (../paging.ts): the last page answers
 * `items: []` with `paging.next` still present. 404 for an unknown domain.
 */
import type { EmulatedRequest, Reply } from '../../types';
import { withDomain } from '../domains';
import { pivotPage } from '../paging';
import type { MailgunSeed } from '../seed';

type SuppressionList = 'bounces' | 'complaints' | 'unsubscribes' | 'whitelists';

export const listSuppressions = (request: EmulatedRequest, data: MailgunSeed, [name, list]: string[]): Reply =>
  withDomain(data, name, (x) => {
    const rows: { address?: string; value?: string }[] = x[list as SuppressionList] ?? [];
    return pivotPage(request, rows, (row) => row.address ?? row.value ?? '', 'address', 1000);
  });
