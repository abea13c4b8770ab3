/**
 * `mailservice domains add | verify | list | get` (docs/domains.md; `health` and `dmarc` are in ./domain-health.ts, `mta-sts` in ./mta-sts.ts, `link-domain` in ./link-domain.ts, `routes` in ./inbound-routes.ts): add prints the DNS records to
 * publish as a table; verify and get take a `dom_` id or the domain's name (looked up in the list).
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client';
import { findDomainId } from '../../api/pages';
import { allPages, contextOf } from '../context';
import { CliFailure } from '../errors';
import type { CliIo } from '../io';
import { formatFields, formatTable, printJson } from '../output';

export interface DomainRecord {
  purpose: string;
  type: string;
  name: string;
  value: string;
  priority?: number;
  required: boolean;
  status: string;
  message?: string;
}

export interface Domain {
  id: string;
  name: string;
  status: string;
  tenant: string | null;
  created_at: string;
  verified_at: string | null;
  records: DomainRecord[];
}

/** The records as a table: what to publish where, and each record's status. */
export function recordsTable(records: DomainRecord[]): string {
  return formatTable(
    ['type', 'name', 'value', 'purpose', 'required', 'status'],
    records.map((r) => [
      r.type,
      r.name,
      r.type === 'MX' ? `${r.priority ?? 10} ${r.value}` : r.value,
      r.purpose,
      r.required ? 'yes' : 'no',
      r.status,
    ]),
  );
}

function printDomain(io: CliIo, domain: Domain): void {
  io.out(
    formatFields([
      ['id', domain.id],
      ['name', domain.name],
      ['status', domain.status],
      ['tenant', domain.tenant],
      ['verified', domain.verified_at],
    ]),
  );
  io.out(`\n${recordsTable(domain.records)}`);
  const notes = domain.records.filter((r) => r.message).map((r) => `${r.purpose}: ${r.message}`);
  if (notes.length) io.out(`\n${notes.join('\n')}\n`);
}

/** A domain's id from an id or a name (a name is looked up in the account's domains). */
export async function domainIdOf(client: ApiClient, idOrName: string): Promise<string> {
  const id = await findDomainId(client, idOrName);
  if (!id) throw new CliFailure(`no domain named ${idOrName} in this account (mailservice domains list shows them)`);
  return id;
}

/** Registers `domains` and answers it (its health, dmarc, mta-sts and link-domain subcommands are in ./domain-health.ts, ./mta-sts.ts and ./link-domain.ts). */
export function registerDomains(program: Command, io: CliIo): Command {
  const domains = program.command('domains').description('sending domains');
  domains
    .command('add <name>')
    .description('add a domain and print the DNS records to publish')
    .option('--tenant <tenant>', 'give it to this tenant')
    .option('--inbound', 'receive mail too (adds inbound.<name> and its MX record)')
    .action(async (name: string, options: { tenant?: string; inbound?: boolean }, command: Command) => {
      const ctx = contextOf(io, command);
      const body = { name, ...(options.tenant ? { tenant: options.tenant } : {}), ...(options.inbound ? { inbound_enabled: true } : {}) };
      const answer = await ctx.client().post<{ domain: Domain }>('/domains', body);
      if (ctx.json) return printJson(io, answer);
      io.out(
        `Added ${answer.domain.name} (${answer.domain.id}), ${answer.domain.status}. Publish these records at your DNS host, then run: mailservice domains verify ${answer.domain.name}\n\n`,
      );
      io.out(recordsTable(answer.domain.records));
    });
  domains
    .command('verify <id-or-name>')
    .description("check the domain's DNS records now")
    .action(async (idOrName: string, _options: unknown, command: Command) => {
      const ctx = contextOf(io, command);
      const client = ctx.client();
      const answer = await client.post<{ domain: Domain }>(`/domains/${encodeURIComponent(await domainIdOf(client, idOrName))}`, {
        action: 'verify',
      });
      if (ctx.json) return printJson(io, answer);
      printDomain(io, answer.domain);
    });
  domains
    .command('get <id-or-name>')
    .description('one domain and its records')
    .action(async (idOrName: string, _options: unknown, command: Command) => {
      const ctx = contextOf(io, command);
      const client = ctx.client();
      const answer = await client.get<{ domain: Domain }>(`/domains/${encodeURIComponent(await domainIdOf(client, idOrName))}`);
      if (ctx.json) return printJson(io, answer);
      printDomain(io, answer.domain);
    });
  domains
    .command('list')
    .description("the account's domains (every page)")
    .option('--tenant <tenant>', "only this tenant's domains")
    .action(async (options: { tenant?: string }, command: Command) => {
      const ctx = contextOf(io, command);
      const list = await allPages<Domain>(ctx.client(), '/domains', 'domains', { tenant: options.tenant });
      if (ctx.json) return printJson(io, { domains: list });
      io.out(
        formatTable(
          ['id', 'name', 'status', 'tenant', 'created'],
          list.map((d) => [d.id, d.name, d.status, d.tenant, d.created_at]),
          'no domains',
        ),
      );
    });
  return domains;
}
