/**
 * `mailservice domains mta-sts <id|name> [--mode m [--max-age s] | --delete]` (docs/deliverability.md,
 * "Hosted MTA-STS policy"): shows the hosted MTA-STS policy of the domain's receiving subdomain (GET
 * /domains/{id}/mta-sts) as its status, mode, URL and message and a table of the records to publish in the
 * API's order; `--mode` hosts or changes it (PUT, then shows it as GET does; the same mode again takes the
 * next step now); `--delete` stops hosting it (DELETE, one line). A `dom_` id or the domain's name;
 * `--json` prints the answer.
 */
import type { Command } from 'commander';
import {
  getMtaSts,
  hostMtaSts,
  MTA_STS_MODES,
  mtaStsLine,
  stopMtaSts,
  type MtaStsHosting,
  type MtaStsPolicyInput,
} from '../../api/mta-sts';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import type { CliIo } from '../io';
import { formatFields, printJson } from '../output';
import { domainIdOf } from './domains';
import { hostedRecordsTable } from './hosted-records';

interface MtaStsOptions {
  mode?: string;
  maxAge?: string;
  delete?: boolean;
}

/** The status line, what the policy is, then the records to publish in order. */
export function describeMtaSts(hosting: MtaStsHosting): string {
  const fields = formatFields([
    ['status', hosting.status],
    ['mode', hosting.mode],
    ['policy url', hosting.policy_url],
    ['message', hosting.message],
    ['policy id', hosting.policy_id],
    ['mx', hosting.mx],
    ['max age', `${hosting.max_age} s`],
    ['checked', hosting.checked_at],
    ['next check', hosting.next_check_at],
  ]);
  return `MTA-STS policy of ${mtaStsLine(hosting)}\n${fields}\n${hostedRecordsTable(hosting.records)}`;
}

/** The PUT body from the flags; null without --mode (a show, or --delete). Usage errors before any request. */
export function policyInput(options: MtaStsOptions): MtaStsPolicyInput | null {
  if (options.delete && (options.mode !== undefined || options.maxAge !== undefined))
    throw new UsageError('--delete takes neither --mode nor --max-age');
  if (options.mode === undefined) {
    if (options.maxAge !== undefined) throw new UsageError('--max-age needs --mode (the policy to host)');
    return null;
  }
  const mode = MTA_STS_MODES.find((known) => known === options.mode);
  if (!mode) throw new UsageError(`--mode must be one of ${MTA_STS_MODES.join(', ')} (got ${options.mode})`);
  if (options.maxAge === undefined) return { mode };
  if (!/^\d+$/.test(options.maxAge)) throw new UsageError(`--max-age must be a whole number of seconds (got ${options.maxAge})`);
  return { mode, max_age: Number(options.maxAge) };
}

export function registerMtaSts(domains: Command, io: CliIo): void {
  domains
    .command('mta-sts <id-or-name>')
    .description(
      "the hosted MTA-STS policy of the domain's receiving subdomain: its status and the records to publish; --mode hosts or changes it, --delete stops it",
    )
    .option(
      '--mode <mode>',
      `host the policy, or change it (PUT; needs domains:write): ${MTA_STS_MODES.join(', ')}; the same mode again checks now`,
    )
    .option('--max-age <seconds>', 'with --mode: how long senders keep the policy (86400 to 31557600; default a week)')
    .option('--delete', 'stop hosting the policy (DELETE; needs domains:write)')
    .action(async (idOrName: string, options: MtaStsOptions, command: Command) => {
      const input = policyInput(options);
      const ctx = contextOf(io, command);
      const client = ctx.client();
      const domainId = await domainIdOf(client, idOrName);
      if (options.delete) {
        const deleted = await stopMtaSts(client, domainId);
        if (ctx.json) return printJson(io, deleted);
        return io.out(
          `stopped hosting the MTA-STS policy of ${deleted.domain_id}: no longer served; its certificate and host are deleted within minutes\n`,
        );
      }
      const hosting = input ? await hostMtaSts(client, domainId, input) : await getMtaSts(client, domainId);
      if (ctx.json) return printJson(io, hosting);
      io.out(describeMtaSts(hosting));
    });
}
