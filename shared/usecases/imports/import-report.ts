/**
 * Reading imports: GET /migrations (the list) and GET /migrations/{id}[/report], as the API shows them
 * (../../domain/imports/public-import.ts).
 */
import { NotFoundError } from '../../domain/errors';
import type { ImportHead } from '../../domain/imports/import';
import { toImportSummary, toPublicImport, type PublicImport } from '../../domain/imports/public-import';
import { mergeParts, type ReportPart } from '../../domain/imports/report';
import type { Page } from '../../adapters/store/cursor';
import type { PageRequest } from '../../adapters/store/paginate';
import type { Principal } from '../access/principal';
import { requireAccountKey } from '../access/tenant-scope';
import type { ImportDeps } from './deps';

/** The head and merged report of an import the principal's account owns (404 otherwise, and for dry runs). */
export async function loadImport(
  deps: Pick<ImportDeps, 'imports' | 'clock'>,
  principal: Principal,
  id: string,
): Promise<{ head: ImportHead; report: ReportPart }> {
  requireAccountKey(principal, 'read imports');
  const head = await deps.imports.get(principal.account.id, id, deps.clock.now().getTime());
  if (!head || head.dry_run) throw new NotFoundError('Import', id);
  return { head, report: mergeParts(await deps.imports.parts(principal.account.id, id)) };
}

/** GET /migrations/{id}: the full report, all requests merged. */
export async function getImport(deps: ImportDeps, principal: Principal, id: string): Promise<PublicImport> {
  const { head, report } = await loadImport(deps, principal, id);
  return toPublicImport(head, report, deps.importSettings.apiBaseUrl);
}

/** GET /migrations: kept imports (not previews), newest first, with their totals. */
export async function listImports(
  deps: Pick<ImportDeps, 'imports' | 'clock'>,
  principal: Principal,
  page: PageRequest,
): Promise<Page<ReturnType<typeof toImportSummary>>> {
  requireAccountKey(principal, 'read imports');
  const heads = await deps.imports.list(principal.account.id, page);
  return { ...heads, items: heads.items.map(toImportSummary) };
}
