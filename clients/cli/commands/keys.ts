/**
 * `mailservice keys list | create | revoke` (GET/POST /api-keys, DELETE /api-keys/{id}). The secret of
 * a new key is printed once: the service keeps only its hash.
 */
import type { Command } from 'commander';
import { allPages, contextOf } from '../context';
import type { CliIo } from '../io';
import { formatFields, formatTable, printJson } from '../output';
import { collect } from '../send/flags';

interface ApiKey {
  id: string;
  name: string;
  scopes: string[];
  tenant: string | null;
  allowed_domains: string[] | null;
  hint: string;
  created_at: string;
}

/** `--scopes a,b --scopes c` -> [a, b, c]. */
export const splitList = (values: string[] | undefined) => (values ?? []).flatMap((value) => value.split(/[,\s]+/)).filter(Boolean);

export function registerKeys(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('API keys');
  keys
    .command('list')
    .description("the account's keys (every page)")
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(io, command);
      const list = await allPages<ApiKey>(ctx.client(), '/api-keys', 'api_keys');
      if (ctx.json) return printJson(io, { api_keys: list });
      io.out(
        formatTable(
          ['id', 'name', 'scopes', 'tenant', 'hint', 'created'],
          list.map((k) => [k.id, k.name, k.scopes.join(','), k.tenant, k.hint, k.created_at]),
          'no keys',
        ),
      );
    });
  keys
    .command('create')
    .description('create a key and print its secret (shown once)')
    .requiredOption('--name <name>', 'a label for people')
    .option(
      '--scopes <scopes...>',
      "full, mail:admin, account:admin, emails:send, domains:write, webhooks:write, templates:write, suppressions:write, account:read (comma or space separated, repeatable); default: your key's own, and never beyond them",
      collect,
    )
    .option('--tenant <tenant>', 'limit the key to this tenant')
    .option(
      '--allowed-domains <domains...>',
      "limit sends to these domains (default: your key's own list; a limited key gives only a subset of it)",
      collect,
    )
    .action(async (options: { name: string; scopes?: string[]; tenant?: string; allowedDomains?: string[] }, command: Command) => {
      const ctx = contextOf(io, command);
      const scopes = splitList(options.scopes);
      const domains = splitList(options.allowedDomains);
      const body = {
        name: options.name,
        ...(scopes.length ? { scopes } : {}),
        ...(options.tenant ? { tenant: options.tenant } : {}),
        ...(domains.length ? { allowed_domains: domains } : {}),
      };
      const answer = await ctx.client().post<{ api_key: ApiKey; secret: string }>('/api-keys', body);
      if (ctx.json) return printJson(io, answer);
      io.out(
        formatFields([
          ['id', answer.api_key.id],
          ['name', answer.api_key.name],
          ['scopes', answer.api_key.scopes],
          ['tenant', answer.api_key.tenant],
          ['allowed domains', answer.api_key.allowed_domains ?? []],
        ]),
      );
      io.out(`secret: ${answer.secret}\n`);
      io.err('Save the secret now: it is shown only once.\n');
    });
  keys
    .command('revoke <id>')
    .description('revoke a key (it stops working at once)')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = contextOf(io, command);
      const answer = await ctx.client().delete(`/api-keys/${encodeURIComponent(id)}`);
      if (ctx.json) return printJson(io, answer);
      io.out(`revoked ${id}\n`);
    });
}
