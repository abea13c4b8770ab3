/** GET /templates: Count + Offset required (../paging.ts), filtered by TemplateType and LayoutTemplate; TotalCount. */
import { paramIgnoringCase } from '../../query-params';
import { json, type EmulatedRequest, type Reply } from '../../types';
import { paging } from '../paging';
import type { PostmarkSeed } from '../seed';

export function listTemplates(request: EmulatedRequest, data: PostmarkSeed): Reply {
  const page = paging(request);
  if ('status' in page) return page;
  const type = paramIgnoringCase(request.query, 'TemplateType') ?? 'All';
  const layout = paramIgnoringCase(request.query, 'LayoutTemplate');
  const matching = data.templates.filter((t) => (type === 'All' || t.TemplateType === type) && (!layout || t.LayoutTemplate === layout));
  const items = matching.slice(page.offset, page.offset + page.count).map((t) => ({
    Active: t.Active,
    TemplateId: t.TemplateId,
    Name: t.Name,
    Alias: t.Alias,
    TemplateType: t.TemplateType,
    LayoutTemplate: t.LayoutTemplate,
  }));
  return json(200, { TotalCount: matching.length, Templates: items });
}
