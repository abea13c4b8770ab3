/**
 * `mailservice send`: one email from flags, or from an .eml file (`--eml`) with flags overriding its
 * fields. POST /emails with `Idempotency-Key` when `--idempotency-key` is given; prints the id and status.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import type { CliIo } from '../io';
import { printJson } from '../output';
import { sendBodyOfEml } from '../send/eml';
import { collect, mergeSendBodies, sendBodyOfFlags, type SendFlags } from '../send/flags';

export function registerSend(program: Command, io: CliIo): void {
  program
    .command('send')
    .description('send an email (from flags, or from an .eml file with --eml)')
    .option('--from <address>', 'sender: an address of a verified domain, or <anything>@sandbox.mailservice.dev')
    .option('--to <address>', 'recipient (repeatable)', collect)
    .option('--cc <address>', 'Cc recipient (repeatable)', collect)
    .option('--bcc <address>', 'Bcc recipient (repeatable)', collect)
    .option('--reply-to <address>', 'Reply-To address (repeatable)', collect)
    .option('--subject <text>', 'subject line')
    .option('--text <text>', 'plain-text body')
    .option('--html <html>', 'HTML body')
    .option('--html-file <file>', 'HTML body read from a file')
    .option('--tag <name=value>', 'tag (repeatable)', collect)
    .option('--header <"Name: value">', 'custom header (repeatable)', collect)
    .option('--attach <file>', 'attach a file (repeatable)', collect)
    .option('--scheduled-at <iso8601>', 'send later (ISO 8601 with a time zone)')
    .option('--idempotency-key <key>', 'Idempotency-Key header: a retry with the same key sends once')
    .option('--tenant <tenant>', 'send as this tenant (external_id or id)')
    .option('--category <category>', 'transactional (default), product or newsletter')
    .option('--eml <file>', 'read from, to, cc, subject, bodies and attachments from an .eml file (flags override)')
    .addHelpText('after', '\nExample:\n  mailservice send --from me@sandbox.mailservice.dev --to you@example.com --subject Hi --text Hello')
    .action(async (flags: SendFlags, command: Command) => {
      const ctx = contextOf(io, command);
      let fromEml = {};
      if (flags.eml !== undefined) {
        let source: Buffer;
        try {
          source = readFileSync(flags.eml);
        } catch (error) {
          throw new UsageError(`--eml ${flags.eml}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
        }
        fromEml = await sendBodyOfEml(source);
      }
      const body = mergeSendBodies(fromEml, sendBodyOfFlags(flags));
      const headers = flags.idempotencyKey ? { 'Idempotency-Key': flags.idempotencyKey } : undefined;
      const answer = await ctx.client().post<{ id: string; status: string }>('/emails', body, headers);
      if (ctx.json) printJson(io, answer);
      else io.out(`${answer.id} ${answer.status}\n`);
    });
}
