/**
 * `mailservice webhooks list | rotate-secret | stop-previous-secret` (GET /webhooks, POST /webhooks/{id}/secret,
 * DELETE /webhooks/{id}/secret/previous). A rotated endpoint's new secret is printed once; the previous one keeps
 * signing every delivery beside it for the overlap (docs/webhooks.md, "Rotating the secret").
 */
import type { Command } from 'commander';
import { allPages, contextOf } from '../context';
import { UsageError } from '../errors';
import type { CliIo } from '../io';
import { formatFields, formatTable, printJson } from '../output';

interface Webhook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  secret_rotated_at: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `90`, `90s`, `30m`, `24h`, `7d` -> seconds; a usage error otherwise. */
export function overlapSeconds(value: string): number {
  const match = /^(\d+)([smhd])?$/.exec(value.trim());
  if (!match) throw new UsageError(`--overlap takes a duration such as 0, 3600, 30m, 24h or 7d (got "${value}")`);
  return Number(match[1]) * UNIT_SECONDS[match[2] ?? 's']!;
}

const endpointFields = (webhook: Webhook): [string, string | null][] => [
  ['id', webhook.id],
  ['url', webhook.url],
  ['secret rotated', webhook.secret_rotated_at ?? 'never'],
  ['previous secret signs until', webhook.previous_secret_expires_at ?? '(none signs)'],
];

export function registerWebhooks(program: Command, io: CliIo): void {
  const webhooks = program.command('webhooks').description('webhook endpoints and their signing secrets');
  webhooks
    .command('list')
    .description("the account's endpoints (every page)")
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(io, command);
      const list = await allPages<Webhook>(ctx.client(), '/webhooks', 'webhooks');
      if (ctx.json) return printJson(io, { webhooks: list });
      io.out(
        formatTable(
          ['id', 'url', 'enabled', 'events', 'secret rotated'],
          list.map((w) => [w.id, w.url, w.enabled ? 'yes' : 'no', String(w.events.length), w.secret_rotated_at ?? 'never']),
          'no webhooks',
        ),
      );
    });
  webhooks
    .command('rotate-secret <id>')
    .description('a new signing secret (printed once); the previous one keeps signing beside it for --overlap')
    .option('--overlap <duration>', 'how long the previous secret keeps signing: 0 (stop at once) to 7d; e.g. 3600, 30m, 24h', '24h')
    .action(async (id: string, options: { overlap: string }, command: Command) => {
      const ctx = contextOf(io, command);
      const body = { overlap_seconds: overlapSeconds(options.overlap) };
      const answer = await ctx.client().post<{ webhook: Webhook; secret: string }>(`/webhooks/${encodeURIComponent(id)}/secret`, body);
      if (ctx.json) return printJson(io, answer);
      io.out(formatFields(endpointFields(answer.webhook)));
      io.out(`secret: ${answer.secret}\n`);
      io.err('Save the new secret now: it is shown only once. Switch your receiver to it before the previous one stops.\n');
    });
  webhooks
    .command('stop-previous-secret <id>')
    .description('the previous signing secret stops signing now (after a rotation)')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = contextOf(io, command);
      const answer = await ctx.client().delete<{ webhook: Webhook }>(`/webhooks/${encodeURIComponent(id)}/secret/previous`);
      if (ctx.json) return printJson(io, answer);
      io.out(formatFields(endpointFields(answer.webhook)));
    });
}
