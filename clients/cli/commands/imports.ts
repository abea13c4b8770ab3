/**
 * `mailservice imports start | status | list` (docs/imports.md): start follows POST /migrations'
 * continuations to the end with a progress bar of what each request reported, then prints the report
 * (with each imported webhook's signing secret, which only the answer that created it carries).
 */
import type { Command } from 'commander';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import { followImport } from '../imports/follow';
import { describeReport, resourcesDone, RESOURCE_ORDER, stepNote, type Migration } from '../imports/report';
import type { CliIo } from '../io';
import { formatTable, printJson } from '../output';
import { startProgress } from '../progress';
import { collect } from '../send/flags';
import { splitList } from './keys';

const PROVIDERS = ['sendgrid', 'postmark', 'mailgun'];

interface StartOptions {
  provider: string;
  providerKey: string;
  accountKey?: string;
  region?: string;
  resources?: string[];
  dryRun?: boolean;
  cursor?: string;
}

/** The POST /migrations body of `imports start`'s flags; refuses what the API would refuse anyway, before the provider is called. */
export function importBody(options: StartOptions): Record<string, unknown> {
  if (!PROVIDERS.includes(options.provider))
    throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}, not "${options.provider}"`);
  const resources = splitList(options.resources);
  const unknown = resources.filter((resource) => !(RESOURCE_ORDER as readonly string[]).includes(resource));
  if (unknown.length) throw new UsageError(`--resources: ${unknown.join(', ')} unknown (choose from ${RESOURCE_ORDER.join(', ')})`);
  return {
    provider: options.provider,
    api_key: options.providerKey,
    ...(options.accountKey ? { account_api_key: options.accountKey } : {}),
    ...(options.region ? { region: options.region } : {}),
    ...(resources.length ? { resources } : {}),
    ...(options.dryRun ? { dry_run: true } : {}),
  };
}

export function registerImports(program: Command, io: CliIo): void {
  const imports = program
    .command('imports')
    .description('bring suppressions, templates, domains and webhooks from SendGrid, Postmark or Mailgun');
  imports
    .command('start')
    .description('run an import to its end (following the continuations), with progress, then print the report')
    .requiredOption('--provider <provider>', 'sendgrid, postmark or mailgun')
    .requiredOption('--provider-key <key>', "the provider's API key (Postmark: the server token); used for this import only, never stored")
    .option('--account-key <token>', "Postmark's account token (to import sending domains)")
    .option('--region <region>', 'us (default) or eu (SendGrid, Mailgun)')
    .option('--resources <resources...>', 'any of domains, webhooks, templates, suppressions (default all)', collect)
    .option('--dry-run', 'preview: read everything, write nothing')
    .option('--cursor <cursor>', 'resume an unfinished import from its next_cursor (same flags as the first run)')
    .action(async (options: StartOptions, command: Command) => {
      const ctx = contextOf(io, command);
      const body = importBody(options);
      const progress = startProgress(io, `import from ${options.provider}`, 'resources');
      const secrets = new Map<string, string>();
      const { migration } = await followImport(ctx.client(), body, options.cursor, {
        sleep: io.sleep,
        onStep(step) {
          for (const item of step.webhooks?.items ?? [])
            if (typeof item.secret === 'string' && item.secret) secrets.set(item.url as string, item.secret);
          progress.update(resourcesDone(step), step.resources.length, stepNote(step));
        },
      }).finally(() => progress.stop());
      if (ctx.json) {
        const webhooks = migration.webhooks && {
          ...migration.webhooks,
          items: (migration.webhooks.items ?? []).map((item) => ({
            ...item,
            secret: item.secret ?? secrets.get(item.url as string) ?? null,
          })),
        };
        return printJson(io, { migration: { ...migration, ...(webhooks ? { webhooks } : {}) } });
      }
      io.out(describeReport(migration, secrets));
      if (!migration.dry_run) io.out(`The full report: mailservice imports status ${migration.id}\n`);
    });
  imports
    .command('status <id>')
    .description("an import's report (GET /migrations/{id})")
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = contextOf(io, command);
      const answer = await ctx.client().get<{ migration: Migration }>(`/migrations/${encodeURIComponent(id)}`);
      if (ctx.json) return printJson(io, answer);
      io.out(describeReport(answer.migration));
      if (answer.migration.has_more)
        io.out(`Not finished: continue it with the same imports start flags and --cursor ${answer.migration.next_cursor}.\n`);
    });
  imports
    .command('list')
    .description('the newest imports kept (up to 100)')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(io, command);
      const page = await ctx
        .client()
        .get<{ migrations: Migration[]; has_more: boolean; next_cursor: string | null }>('/migrations', { limit: 100 });
      if (ctx.json) return printJson(io, page);
      io.out(
        formatTable(
          ['id', 'provider', 'status', 'requests'],
          page.migrations.map((m) => [m.id, m.provider, m.status, m.requests]),
          'no imports',
        ),
      );
    });
}
