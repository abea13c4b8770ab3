/**
 * `mailservice suppressions list | add | remove | export | import` (docs/suppressions.md). Export reads
 * every page into a CSV; import reads a CSV (suppressions/import-plan.ts) and posts it in batches with
 * a progress bar, then prints how many lines were added, skipped and refused (and why).
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { allPages, contextOf } from '../context';
import { readCsv, writeCsv } from '../csv/csv';
import { CliFailure } from '../errors';
import { positiveInteger, readTextFile } from '../options';
import type { CliIo } from '../io';
import { formatFields, formatTable, printJson } from '../output';
import { startProgress } from '../progress';
import { planImport, type ImportPlan } from '../suppressions/import-plan';
import { runImport, type ImportSummary } from '../suppressions/run-import';

interface Suppression {
  email: string;
  scope: string;
  tenant: string | null;
  reason?: string;
  category?: string;
  created_at: string;
}

interface ListOptions {
  tenant?: string;
  category?: string;
}

const itemsKey = (options: ListOptions) => (options.category ? 'category_opt_outs' : 'suppressions');
const listQuery = (options: ListOptions & { reason?: string }) => ({
  tenant: options.tenant,
  category: options.category,
  reason: options.reason,
});

/** The export's rows: a header, then one row per entry (what `suppressions import` reads back). */
export function exportRows(items: Suppression[], category: boolean): (string | null)[][] {
  if (category)
    return [['email', 'category', 'tenant', 'created_at'], ...items.map((s) => [s.email, s.category ?? null, s.tenant, s.created_at])];
  return [
    ['email', 'reason', 'scope', 'tenant', 'created_at'],
    ...items.map((s) => [s.email, s.reason ?? null, s.scope, s.tenant, s.created_at]),
  ];
}

/** The summary's text: counts, relabelled reasons, and the refused lines (the first 20) with why. */
export function describeSummary(summary: ImportSummary): string {
  const lines = [
    `${summary.lines} lines: ${summary.added} added, ${summary.skipped} skipped (already listed or repeated), ${summary.refused} refused`,
  ];
  for (const [reason, count] of Object.entries(summary.relabelled))
    lines.push(`${count} with reason ${reason} added as manual (the service sets ${reason} itself)`);
  for (const bad of summary.refused_lines.slice(0, 20)) lines.push(`  line ${bad.line}: ${bad.reason}`);
  if (summary.refused_lines.length > 20) lines.push(`  ... and ${summary.refused_lines.length - 20} more (--json lists them all)`);
  return `${lines.join('\n')}\n`;
}

export function registerSuppressions(program: Command, io: CliIo): void {
  const suppressions = program.command('suppressions').description('addresses the service will not send to');
  suppressions
    .command('list')
    .description("the suppression list (every page), or a category's opt-outs")
    .option('--tenant <tenant>', "the tenant's list instead of the account-wide one")
    .option('--category <category>', 'opt-outs of product or newsletter mail instead')
    .option('--reason <reason>', 'only bounce, complaint, unsubscribe or manual')
    .option('--email <address>', 'look up one address (with its category opt-outs)')
    .action(async (options: ListOptions & { reason?: string; email?: string }, command: Command) => {
      const ctx = contextOf(io, command);
      if (options.email) {
        const answer = await ctx.client().get<{ suppressions: Suppression[]; category_opt_outs?: Suppression[] }>('/suppressions', {
          ...listQuery(options),
          email: options.email,
        });
        if (ctx.json) return printJson(io, answer);
        const entries = [...answer.suppressions, ...(answer.category_opt_outs ?? [])];
        io.out(
          formatTable(
            ['email', 'reason or category', 'scope', 'tenant', 'created'],
            entries.map((s) => [s.email, s.reason ?? `opted out of ${s.category}`, s.scope, s.tenant, s.created_at]),
            `${options.email} is not suppressed`,
          ),
        );
        return;
      }
      const items = await allPages<Suppression>(ctx.client(), '/suppressions', itemsKey(options), listQuery(options));
      if (ctx.json) return printJson(io, { [itemsKey(options)]: items });
      io.out(
        formatTable(
          ['email', options.category ? 'category' : 'reason', 'scope', 'tenant', 'created'],
          items.map((s) => [s.email, s.reason ?? s.category, s.scope, s.tenant, s.created_at]),
          'the list is empty',
        ),
      );
    });
  suppressions
    .command('add <emails...>')
    .description('add addresses (reason manual), or opt them out of a category')
    .option('--tenant <tenant>', "the tenant's list")
    .option('--category <category>', 'opt out of product or newsletter mail only')
    .action(async (emails: string[], options: ListOptions, command: Command) => {
      const ctx = contextOf(io, command);
      const answer = await ctx.client().post<{ created: string[]; existing: string[] }>('/suppressions', {
        emails,
        ...(options.tenant ? { tenant: options.tenant } : {}),
        ...(options.category ? { category: options.category } : {}),
      });
      if (ctx.json) return printJson(io, answer);
      io.out(
        formatFields([
          ['added', answer.created.length ? answer.created : 'none'],
          ['already listed', answer.existing],
        ]),
      );
    });
  suppressions
    .command('remove <email>')
    .description('remove an address from the list (or its category opt-out)')
    .option('--tenant <tenant>', "the tenant's list")
    .option('--category <category>', 'remove the opt-out of this category instead')
    .action(async (email: string, options: ListOptions, command: Command) => {
      const ctx = contextOf(io, command);
      const query = new URLSearchParams({
        email,
        ...(options.tenant ? { tenant: options.tenant } : {}),
        ...(options.category ? { category: options.category } : {}),
      });
      const answer = await ctx.client().delete(`/suppressions?${query}`);
      if (ctx.json) return printJson(io, answer);
      io.out(`removed ${email}${options.category ? ` (${options.category} opt-out)` : ''}\n`);
    });
  suppressions
    .command('export')
    .description('write the whole list (every page) to a CSV file')
    .requiredOption('--out <file>', 'the CSV file to write ("-" for standard output)')
    .option('--tenant <tenant>', "the tenant's list")
    .option('--category <category>', "a category's opt-outs instead")
    .option('--reason <reason>', 'only this reason')
    .action(async (options: ListOptions & { out: string; reason?: string }, command: Command) => {
      const ctx = contextOf(io, command);
      const items = await allPages<Suppression>(ctx.client(), '/suppressions', itemsKey(options), listQuery(options));
      const csv = writeCsv(exportRows(items, Boolean(options.category)));
      if (options.out === '-') return io.out(csv);
      writeFileSync(options.out, csv);
      if (ctx.json) return printJson(io, { file: options.out, rows: items.length });
      io.out(`${items.length} ${items.length === 1 ? 'entry' : 'entries'} written to ${options.out}\n`);
    });
  suppressions
    .command('import <file>')
    .description('add the addresses of a CSV (columns email,reason[,tenant,category]) in batches')
    .option('--batch-size <n>', 'addresses per request (1-1000)', positiveInteger('--batch-size', 1000), 500)
    .action(async (file: string, options: { batchSize: number }, command: Command) => {
      const ctx = contextOf(io, command);
      const { rows, bad } = readCsv(readTextFile(file));
      let plan: ImportPlan;
      try {
        plan = planImport(rows, bad, options.batchSize);
      } catch (error) {
        throw new CliFailure(`${file}, ${(error as Error).message}`);
      }
      const summary = await runImport(ctx.client(), plan, startProgress(io, 'suppressions', 'lines'), io.sleep);
      if (ctx.json) return printJson(io, summary);
      io.out(describeSummary(summary));
    });
}
