/**
 * Which of our templates a Postmark `TemplateAlias` or `TemplateId` names. Our templates are addressed by
 * alias (lower-case letters, digits, `_`, `-`; at most 64). The Postmark import (shared/domain/imports/
 * convert-template.ts, `aliasFor`) kept a Postmark alias that is already a valid alias of ours as it is,
 * else used a slug of the template's name, else a slug of its alias, else `template-<id>`. So:
 *  - `TemplateAlias` as written when it is valid for us, else its slug (the import's third choice: a
 *    template whose invalid alias was replaced by its name's slug is found by that slug as TemplateAlias);
 *  - `TemplateId` (Postmark's number) through the template map of the account's Postmark imports (the
 *    newest first): the alias its template was imported under. An id no import knows is Postmark's 1101.
 */
import { aliasSlug } from '#shared/domain/imports/convert-template';
import { TEMPLATE_ALIAS } from '#shared/domain/templates/template';
import type { ImportRepository } from '#shared/adapters/store/imports';
import { POSTMARK_CODES, PostmarkFailure } from './errors';

/** Imports whose template maps a TemplateId is looked up in (newest first). */
const IMPORTS_SEARCHED = 20;

/** Our alias for a Postmark TemplateAlias (pure). */
export function aliasForTemplateAlias(alias: string): string {
  const trimmed = alias.trim();
  if (TEMPLATE_ALIAS.test(trimmed)) return trimmed;
  const slug = aliasSlug(trimmed);
  if (slug === '')
    throw new PostmarkFailure(
      POSTMARK_CODES.templateNotFound,
      `The template "${alias}" was not found: no template alias can be made of it.`,
    );
  return slug;
}

/** The Postmark template id of a TemplateId (a number, or its digits as a string); null when it is not one. */
export function templateIdOf(value: number | string): string | null {
  const text = String(value).trim();
  return /^\d{1,19}$/.test(text) ? text : null;
}

export type ImportLookup = Pick<ImportRepository, 'list' | 'parts'>;

/** The alias a Postmark import gave the template with this id, or a 1101 PostmarkFailure. */
export async function aliasForTemplateId(imports: ImportLookup, accountId: string, templateId: number | string): Promise<string> {
  const id = templateIdOf(templateId);
  if (id === null)
    throw new PostmarkFailure(
      POSTMARK_CODES.invalidRequest,
      'TemplateId must be a Postmark template id (a number); or give TemplateAlias.',
    );
  const page = await imports.list(accountId, { limit: IMPORTS_SEARCHED });
  for (const head of page.items) {
    if (head.provider !== 'postmark' || head.dry_run) continue;
    for (const part of await imports.parts(accountId, head.id)) {
      const item = part.templates.items.find((entry) => entry.source_id === id && entry.status !== 'failed');
      if (item) return item.alias;
    }
  }
  throw new PostmarkFailure(
    POSTMARK_CODES.templateNotFound,
    `The template with TemplateId ${id} was not found: no Postmark import of this account has it. Import it (POST /migrations) or send with TemplateAlias (our template's alias).`,
  );
}
