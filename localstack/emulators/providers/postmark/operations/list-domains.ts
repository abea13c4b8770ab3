/** GET /domains (account token): count + offset required (../paging.ts); the domains' summaries and TotalCount. */
import { json, type EmulatedRequest, type Reply } from '../../types';
import { paging } from '../paging';
import type { PostmarkSeed } from '../seed';

export function listDomains(request: EmulatedRequest, data: PostmarkSeed): Reply {
  const page = paging(request);
  if ('status' in page) return page;
  const items = data.domains.slice(page.offset, page.offset + page.count).map((d) => ({
    Name: d.Name,
    SPFVerified: d.SPFVerified,
    DKIMVerified: d.DKIMVerified,
    WeakDKIM: d.WeakDKIM,
    ReturnPathDomainVerified: d.ReturnPathDomainVerified,
    ID: d.ID,
  }));
  return json(200, { TotalCount: data.domains.length, Domains: items });
}
