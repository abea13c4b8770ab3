/**
 * Which of our templates a SendGrid `template_id` names. Our templates are addressed by alias; the
 * SendGrid import (shared/usecases/imports/import-templates.ts, aliasFor in
 * shared/domain/imports/convert-template.ts) names each imported template after its SendGrid *name*
 * (`Welcome email` -> `welcome-email`; SendGrid templates have no alias), and keeps the SendGrid id ->
 * alias map in the import's report (`templates.items[].source_id` -> `alias`). So, in order:
 *  1. a template whose alias is the id itself (lower-cased): a template created, or renamed, as `d-...`;
 *  2. the alias a SendGrid import of this account gave that id (the newest import that has it);
 *  3. else the id as it is: the send core then answers "no template with alias ..." (SendGrid's 400 on
 *     template_id).
 * Step 2 reads the account's imports (newest IMPORTS_SEARCHED, then each SendGrid one's report parts):
 * only when step 1 found nothing, i.e. a send by a SendGrid id that was imported.
 */
import { TEMPLATE_ALIAS } from '#shared/domain/templates/template';
import type { ReportPart } from '#shared/domain/imports/report';
import type { ImportRepository } from '#shared/adapters/store/imports';
import type { TemplateRepository } from '#shared/adapters/store/templates';

/** Imports searched for the id, newest first. */
export const IMPORTS_SEARCHED = 25;

export interface TemplateAliasDeps {
  templates: Pick<TemplateRepository, 'get'>;
  imports: Pick<ImportRepository, 'list' | 'parts'>;
}

/** The alias an import's report gave a SendGrid template id (not a failed or dry-run item), or null. Pure. */
export function importedAliasOf(parts: readonly ReportPart[], templateId: string): string | null {
  for (const part of parts) {
    const item = part.templates.items.find(
      (entry) => entry.source_id === templateId && entry.status !== 'failed' && entry.status !== 'would_import',
    );
    if (item) return item.alias;
  }
  return null;
}

export async function templateAliasOf(deps: TemplateAliasDeps, accountId: string, templateId: string): Promise<string> {
  const direct = templateId.trim().toLowerCase();
  if (TEMPLATE_ALIAS.test(direct) && (await deps.templates.get(accountId, direct))) return direct;
  const imports = await deps.imports.list(accountId, { limit: IMPORTS_SEARCHED });
  for (const head of imports.items) {
    if (head.provider !== 'sendgrid' || head.dry_run) continue;
    const alias = importedAliasOf(await deps.imports.parts(accountId, head.id), templateId.trim());
    if (alias !== null) return alias;
  }
  return direct;
}
