/**
 * Sends an import plan to POST /suppressions, batch after batch, and counts what happened to each line:
 * added (`created`), skipped (`existing`: already listed, or a duplicate line), refused (bad lines, and
 * addresses the API refused: a 400 naming `emails.<i>` refuses those and the rest of the batch is sent
 * again; a 404 for an unknown tenant refuses the batch). A 429 waits its Retry-After and tries again;
 * any other failure (a bad key, the service down) stops the import with its error.
 */
import { ApiError, type ApiClient } from '../../api/client';
import type { CsvBadLine } from '../csv/csv';
import type { Progress } from '../progress';
import type { Batch, ImportPlan, PlannedLine } from './import-plan';

export interface ImportSummary {
  lines: number;
  added: number;
  skipped: number;
  refused: number;
  refused_lines: CsvBadLine[];
  relabelled: Record<string, number>;
}

interface FieldError {
  field: string;
  message: string;
}

const fieldsOf = (error: ApiError): FieldError[] =>
  (error.body as { error?: { details?: { fields?: FieldError[] } } })?.error?.details?.fields ?? [];

export async function runImport(
  client: ApiClient,
  plan: ImportPlan,
  progress: Progress,
  sleep: (ms: number) => Promise<void>,
): Promise<ImportSummary> {
  const total = plan.batches.reduce((sum, batch) => sum + batch.lines.length, 0);
  const refused = [...plan.refused];
  let added = 0;
  let skipped = plan.duplicates;
  let done = 0;
  progress.update(0, total, '');
  const post = async (batch: Batch, lines: PlannedLine[]): Promise<void> => {
    if (lines.length === 0) return;
    const body = {
      emails: lines.map((l) => l.email),
      ...(batch.tenant ? { tenant: batch.tenant } : {}),
      ...(batch.category ? { category: batch.category } : {}),
    };
    try {
      const answer = await client.post<{ created: string[]; existing: string[] }>('/suppressions', body);
      added += answer.created.length;
      skipped += answer.existing.length;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 429) {
        await sleep((error.retryAfterSeconds ?? 1) * 1000);
        return post(batch, lines);
      }
      const bad = new Map<number, string>();
      for (const field of fieldsOf(error)) {
        const match = /^emails\.(\d+)$/.exec(field.field);
        if (match && lines[Number(match[1])]) bad.set(Number(match[1]), field.message);
      }
      if (error.status === 400 && bad.size > 0) {
        for (const [index, message] of bad) refused.push({ line: lines[index]!.line, reason: message });
        return post(
          batch,
          lines.filter((_, index) => !bad.has(index)),
        );
      }
      if (error.status === 404 || error.status === 400 || error.status === 422) {
        for (const line of lines) refused.push({ line: line.line, reason: error.message });
        return;
      }
      throw error;
    }
  };
  for (const batch of plan.batches) {
    await post(batch, batch.lines);
    done += batch.lines.length;
    progress.update(done, total, `added ${added}, skipped ${skipped}, refused ${refused.length}`);
  }
  progress.stop();
  refused.sort((a, b) => a.line - b.line);
  const lines = total + plan.duplicates + plan.refused.length;
  return { lines, added, skipped, refused: refused.length, refused_lines: refused, relabelled: plan.relabelled };
}
