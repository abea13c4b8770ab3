/**
 * POST /exports, GET /exports/{id}, GET /exports (docs/exports.md). An export is account-wide: a key
 * limited to a tenant gets 403 (and the operations need `full`: the files hold the whole account).
 *
 * - POST starts an export and works it for one time budget (about 20 s); one running export per account
 *   at a time (another POST meanwhile: 409 naming it).
 * - GET /exports/{id} of a running export continues it for one budget when no other request is working
 *   it (a conditional claim), then answers where it stands; a caller polls GET until `completed`. So a
 *   long export needs nothing but polling, and a request that died (a crash, a timeout) is taken over by
 *   the next GET once its lease has run out.
 * - A completed export answers its files with download links signed for EXPORT_LINK_SECONDS (1 hour),
 *   new ones on every GET, until the export expires (EXPORT_KEPT_DAYS after its creation).
 */
import { ConflictError, NotFoundError } from '../../domain/errors';
import { EXPORT_KINDS, EXPORT_LINK_SECONDS, isExportId, newExportHead, partKey, type ExportHead } from '../../domain/exports/export';
import { toExportSummary, toPublicExport, type ExportFileLink, type PublicExport } from '../../domain/exports/public-export';
import type { Page } from '../../adapters/store/cursor';
import type { PageRequest } from '../../adapters/store/paginate';
import type { Principal } from '../access/principal';
import { requireAccountKey } from '../access/tenant-scope';
import type { ExportDeps } from './deps';
import { workExport } from './work-export';

const EXPORT_WHAT = 'export the account';

/** The export as answered: with signed links to every file once completed. */
async function view(deps: ExportDeps, head: ExportHead): Promise<PublicExport> {
  if (head.status !== 'completed') return toPublicExport(head, [], null);
  // Whole seconds, as the signature's X-Amz-Date: the link must not die before the time shown.
  const linksExpireAt = new Date(Math.floor(deps.clock.now().getTime() / 1000) * 1000 + EXPORT_LINK_SECONDS * 1000).toISOString();
  const files: Promise<ExportFileLink>[] = [];
  for (const kind of EXPORT_KINDS) {
    const totals = head.totals[kind];
    const formats = [
      ['ndjson', totals.part_sizes, 'application/x-ndjson'],
      ...(totals.csv_part_sizes ? [['csv', totals.csv_part_sizes, 'text/csv; charset=utf-8'] as const] : []),
    ] as const;
    for (const [format, sizes, contentType] of formats) {
      sizes.forEach((size, index) => {
        const part = index + 1;
        const key = partKey(head.account_id, head.id, kind, part, format);
        const downloadName = `${head.id}-${kind}-${String(part).padStart(5, '0')}.${format}`;
        files.push(
          deps.blobs
            .presignGet(key, { expiresInSeconds: EXPORT_LINK_SECONDS, downloadName, contentType })
            .then((url) => ({ kind, format, part, size, download_url: url })),
        );
      });
    }
  }
  return toPublicExport(head, await Promise.all(files), linksExpireAt);
}

/**
 * Starts an export. One running export per account, enforced by the store's running slot (a conditional
 * write, not a read): a POST while another runs is 409 naming it. A slot left by an export that completed
 * without giving it back (its request died between the two writes) is given back here and taken again once.
 */
export async function startExport(deps: ExportDeps, principal: Principal): Promise<PublicExport> {
  requireAccountKey(principal, EXPORT_WHAT);
  const started = deps.clock.now().getTime();
  const head = newExportHead(principal.account.id, started);
  const leaseUntilMs = started + deps.exportSettings.leaseMs;
  for (let attempt = 1; ; attempt++) {
    const outcome = await deps.exports.create(head, leaseUntilMs, started);
    if (outcome.kind === 'created') break;
    const holder = outcome.exportId ? await deps.exports.get(principal.account.id, outcome.exportId, started) : null;
    if (holder?.status === 'running' || attempt > 1) {
      const id = holder?.id ?? outcome.exportId;
      throw new ConflictError(
        `Export ${id} is still running: follow it with GET /exports/${id} until it completes, then start another.`,
        'conflict',
        { details: { export_id: id } },
      );
    }
    await deps.exports.release(principal.account.id, outcome.exportId);
  }
  await workExport(deps, head, leaseUntilMs, started);
  return view(deps, head);
}

export async function getExport(deps: ExportDeps, principal: Principal, id: string): Promise<PublicExport> {
  requireAccountKey(principal, EXPORT_WHAT);
  const started = deps.clock.now().getTime();
  const head = isExportId(id) ? await deps.exports.get(principal.account.id, id, started) : null;
  if (!head) throw new NotFoundError('Export', id);
  if (head.status === 'running') {
    const leaseUntilMs = started + deps.exportSettings.leaseMs;
    const claimed = await deps.exports.claim(principal.account.id, id, started, leaseUntilMs);
    // Not claimed: another request is working it now (or just finished it): answer it as it stands.
    if (!claimed) return view(deps, (await deps.exports.get(principal.account.id, id, started)) ?? head);
    await workExport(deps, claimed, leaseUntilMs, started);
    return view(deps, claimed);
  }
  return view(deps, head);
}

export async function listExports(
  deps: ExportDeps,
  principal: Principal,
  page: PageRequest,
): Promise<Page<ReturnType<typeof toExportSummary>>> {
  requireAccountKey(principal, EXPORT_WHAT);
  const result = await deps.exports.list(principal.account.id, page, deps.clock.now().getTime());
  return { items: result.items.map(toExportSummary), next_cursor: result.next_cursor };
}
