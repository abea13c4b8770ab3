/**
 * `mailservice emails list | get <id>` (GET /emails, GET /emails/{id}) and `mailservice events tail`
 * (polls GET /emails, and with --webhook GET /webhooks/{id}/deliveries, printing what changed; Ctrl-C
 * stops it, --once makes one pass).
 */
import type { Command } from 'commander';
import { contextOf } from '../context';
import { positiveInteger } from '../options';
import { deliveryChanges, describeChange, emailChanges, type DeliveryState, type EmailState } from '../events/changes';
import { stopOnInterrupt, type CliIo } from '../io';
import { formatFields, formatTable, printJson, printJsonLine } from '../output';

interface EmailRecord extends EmailState {
  from: string;
  cc: string[];
  bcc: string[];
  bounce_reason: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  scheduled_at: string | null;
  message_id: string | null;
  tenant: string | null;
  tags: unknown;
}

/** Registers `emails` and `events`; answers the `events` command (`events resend` is ./listen.ts's). */
export function registerEmails(program: Command, io: CliIo): Command {
  const emails = program.command('emails').description('list and read sent emails');
  emails
    .command('list')
    .description('the newest emails (GET /emails)')
    .option('--limit <n>', 'how many (1-100)', positiveInteger('--limit', 100), 25)
    .option('--cursor <cursor>', 'next_cursor of the previous page')
    .option('--tenant <tenant>', "only this tenant's emails")
    .action(async (options: { limit: number; cursor?: string; tenant?: string }, command: Command) => {
      const ctx = contextOf(io, command);
      const page = await ctx.client().get<{ emails: EmailRecord[]; has_more: boolean; next_cursor: string | null }>('/emails', options);
      if (ctx.json) return printJson(io, page);
      io.out(
        formatTable(
          ['id', 'status', 'last event', 'created', 'to', 'subject'],
          page.emails.map((e) => [e.id, e.status, e.last_event, e.created_at, e.to.join(', '), e.subject]),
          'no emails',
        ),
      );
      if (page.has_more) io.out(`more: --cursor ${page.next_cursor}\n`);
    });
  emails
    .command('get <id>')
    .description('one email (GET /emails/{id})')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = contextOf(io, command);
      const { email } = await ctx.client().get<{ email: EmailRecord }>(`/emails/${encodeURIComponent(id)}`);
      if (ctx.json) return printJson(io, { email });
      io.out(
        formatFields([
          ['id', email.id],
          ['status', email.status],
          ['last event', email.last_event],
          ['from', email.from],
          ['to', email.to],
          ['cc', email.cc],
          ['bcc', email.bcc],
          ['subject', email.subject],
          ['tenant', email.tenant],
          ['created', email.created_at],
          ['scheduled', email.scheduled_at],
          ['sent', email.sent_at],
          ['delivered', email.delivered_at],
          ['bounce reason', email.bounce_reason],
          ['message id', email.message_id],
        ]),
      );
    });

  const events = program.command('events').description('follow what happens to your emails');
  events
    .command('tail')
    .description("print each email's status changes as they happen (and a webhook's deliveries with --webhook); Ctrl-C stops")
    .option('--webhook <id>', "also follow this webhook's deliveries (GET /webhooks/{id}/deliveries)")
    .option('--limit <n>', 'how many of the newest emails (and deliveries) each poll reads (1-100)', positiveInteger('--limit', 100), 25)
    .option('--interval <ms>', 'time between polls', positiveInteger('--interval', 3_600_000), 2000)
    .option('--tenant <tenant>', "only this tenant's emails")
    .option('--once', 'one pass: print where things stand and stop')
    .action(async (options: { webhook?: string; limit: number; interval: number; tenant?: string; once?: boolean }, command: Command) => {
      const ctx = contextOf(io, command);
      const client = ctx.client();
      const knownEmails = new Map<string, { status: string; detail: string | null }>();
      const knownDeliveries = new Map<string, { status: string; detail: string | null }>();
      const stop = stopOnInterrupt(io);
      try {
        while (!stop.stopped) {
          const page = await client.get<{ emails: EmailState[] }>('/emails', { limit: options.limit, tenant: options.tenant });
          const changes: (ReturnType<typeof emailChanges>[number] | ReturnType<typeof deliveryChanges>[number])[] = emailChanges(
            knownEmails,
            page.emails,
          );
          if (options.webhook) {
            const deliveries = await client.get<{ deliveries: DeliveryState[] }>(
              `/webhooks/${encodeURIComponent(options.webhook)}/deliveries`,
              { limit: options.limit },
            );
            changes.push(...deliveryChanges(knownDeliveries, deliveries.deliveries));
          }
          for (const change of changes) {
            if (ctx.json)
              printJsonLine(io, { kind: change.kind, previous_status: change.previous?.status ?? null, [change.kind]: change.item });
            else io.out(`${describeChange(change)}\n`);
          }
          if (options.once) break;
          await stop.pause(options.interval);
        }
      } finally {
        stop.off();
      }
    });
  return events;
}
