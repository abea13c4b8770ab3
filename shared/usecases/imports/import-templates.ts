/**
 * Templates of an import (spec rules 4, 5 and 7): each provider template (layouts are merged into the
 * templates that use them, never imported alone) is converted (convert-template.ts) and created through
 * createTemplate, then published unless it must be a draft (loops and conditionals kept as written, an
 * unsubscribe link turned into {{unsubscribe_url}} in the product category). A template whose alias the
 * account already has is skipped without reading its content. The template map (provider id -> alias)
 * is what the code changes use.
 */
import { AppError } from '../../domain/errors';
import { aliasFor, convertTemplate, templateCreateInput } from '../../domain/imports/convert-template';
import { emptyPart, type TemplateItem } from '../../domain/imports/report';
import type { SourceTemplateSummary } from '../../domain/imports/source';
import { createTemplateSchema } from '../../domain/templates/schemas';
import { createTemplate, publishTemplate } from '../templates/templates';
import { afterEntries, currentPage, nextResource, workEntries, type StretchContext, type StretchResult } from './stretch';

/** Templates worked per stretch (each new one is a provider read and two writes). */
const TEMPLATES_PER_STRETCH = 10;

async function importTemplate(ctx: StretchContext, summary: SourceTemplateSummary): Promise<TemplateItem> {
  const { deps, principal, head } = ctx;
  const alias = aliasFor({ source_id: summary.source_id, name: summary.name, alias: summary.alias });
  const base: TemplateItem = {
    source_id: summary.source_id,
    name: summary.name,
    alias,
    status: 'failed',
    template_id: null,
    published: false,
    variables: [],
    notes: [],
    message: null,
  };
  const existing = await deps.templates.get(principal.account.id, alias);
  if (existing) {
    return {
      ...base,
      status: 'skipped',
      template_id: existing.id,
      published: existing.published !== null,
      variables: existing.variables.map((v) => v.key),
      message: `A template with alias ${alias} already exists.`,
    };
  }
  const converted = convertTemplate(await ctx.source.getTemplate(summary.source_id));
  const item: TemplateItem = {
    ...base,
    alias: converted.alias,
    name: converted.name,
    variables: converted.variables.map((v) => v.key),
    notes: converted.notes,
  };
  if (converted.status === 'failed')
    return { ...item, status: 'failed', message: converted.notes.join(' ') || 'The template could not be converted.' };
  const parsed = createTemplateSchema.safeParse(templateCreateInput(converted));
  if (!parsed.success)
    return { ...item, message: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') };
  const published = converted.publish;
  if (head.dry_run) return { ...item, status: 'would_import', published };
  try {
    const template = await createTemplate(deps, principal, parsed.data);
    if (published) await publishTemplate(deps, principal, template.alias);
    return { ...item, status: published ? 'imported' : 'needs_attention', template_id: template.id, published };
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    if (error.code === 'conflict') return { ...item, status: 'skipped', message: error.message };
    return { ...item, message: error.message };
  }
}

export async function importTemplatesStretch(ctx: StretchContext): Promise<StretchResult> {
  const part = emptyPart();
  const progress = ctx.head.progress;
  const page = await currentPage(ctx, 'templates', (token) => ctx.source.listTemplates(token));
  const entries = page.items.slice(progress.offset, progress.offset + TEMPLATES_PER_STRETCH);
  const { worked, stop } = await workEntries(
    ctx,
    entries,
    (summary) => (summary.is_layout ? Promise.resolve(null) : importTemplate(ctx, summary)),
    (item) => {
      part.templates.items.push(item);
      const totals = part.templates.totals;
      const draft = item.status === 'needs_attention' || (item.status === 'would_import' && !item.published);
      totals.found++;
      if (item.status === 'skipped') totals.skipped++;
      else if (item.status === 'failed') totals.failed++;
      else if (draft) totals.needs_attention++;
      else totals.imported++;
      if (draft)
        part.attention.push({ resource: 'templates', item: item.alias, message: `Imported as a draft: ${item.notes.join(' ')}`.trim() });
    },
  );
  return { part, progress: afterEntries(progress, page, worked, () => nextResource(progress)), stop };
}
