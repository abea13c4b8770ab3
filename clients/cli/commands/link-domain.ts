/**
 * `mailservice domains link-domain <id|name> [--set-up | --delete]` (docs/tracking.md, "Link domains"): shows the
 * domain's link domain `links.<domain>` (GET) as its status, base URL and message and a table of the records to
 * publish in the API's order, as `mta-sts` shows a policy; `--set-up` asks for it first (PUT
 * /domains/{id}/link-domain, no body: a new one, a failed one started over, a live one checked now); `--delete`
 * stops it (DELETE, one line). A `dom_` id or the domain's name; `--json` prints the answer.
 */
import type { Command } from 'commander';
import { getLinkDomain, linkDomainLine, setUpLinkDomain, stopLinkDomain, type LinkDomain } from '../../api/link-domain';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import type { CliIo } from '../io';
import { formatFields, printJson } from '../output';
import { domainIdOf } from './domains';
import { hostedRecordsTable } from './hosted-records';

interface LinkDomainOptions {
  setUp?: boolean;
  delete?: boolean;
}

/** The status line, where the links point once active and what happens next, then the records to publish in order. */
export function describeLinkDomain(linkDomain: LinkDomain): string {
  const fields = formatFields([
    ['status', linkDomain.status],
    ['base url', linkDomain.base_url],
    ['message', linkDomain.message],
    ['checked', linkDomain.checked_at],
    ['next check', linkDomain.next_check_at],
  ]);
  const records = hostedRecordsTable(linkDomain.records, 'no records yet: the certificate_validation record is listed within a minute');
  return `Link domain ${linkDomainLine(linkDomain)}\n${fields}\n${records}`;
}

export function registerLinkDomain(domains: Command, io: CliIo): void {
  domains
    .command('link-domain <id-or-name>')
    .description(
      "the domain's link domain links.<domain>, where its tracked links, pixels and unsubscribe links point once active: its status and the records to publish; --set-up asks for it (again: checks it now), --delete stops it",
    )
    .option('--set-up', 'ask for the link domain, or check it now (PUT; needs domains:write)')
    .option('--delete', "stop the link domain (DELETE; needs domains:write): the domain's links use the service's link host again")
    .action(async (idOrName: string, options: LinkDomainOptions, command: Command) => {
      if (options.setUp && options.delete)
        throw new UsageError('--set-up and --delete cannot go together (one asks for the link domain, the other stops it)');
      const ctx = contextOf(io, command);
      const client = ctx.client();
      const domainId = await domainIdOf(client, idOrName);
      if (options.delete) {
        const deleted = await stopLinkDomain(client, domainId);
        if (ctx.json) return printJson(io, deleted);
        return io.out(
          `stopped the link domain of ${deleted.domain_id}: its emails link to the service's link host again; its certificate and custom domain name are deleted within minutes\n`,
        );
      }
      const linkDomain = options.setUp ? await setUpLinkDomain(client, domainId) : await getLinkDomain(client, domainId);
      if (ctx.json) return printJson(io, linkDomain);
      io.out(describeLinkDomain(linkDomain));
    });
}
