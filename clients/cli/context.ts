/**
 * What every API command gets: the global options (--json, --profile, --base-url, --api-key), resolved
 * into an API client of clients/api/client.ts, and the io. Built lazily, so `--help` and usage errors
 * need no key.
 */
import type { Command } from 'commander';
import { createApiClient, type ApiClient } from '../api/client';
import { profileFilePath, readProfileFile } from './config/profiles';
import { resolveConnection } from './config/resolve';
import type { CliIo } from './io';

export interface GlobalOptions {
  json?: boolean;
  profile?: string;
  baseUrl?: string;
  apiKey?: string;
}

export interface CommandContext {
  io: CliIo;
  json: boolean;
  client(): ApiClient;
}

/** The program's own options, whichever subcommand is running. */
export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions;
}

export function contextOf(io: CliIo, command: Command): CommandContext {
  const options = globalOptions(command);
  let client: ApiClient | undefined;
  return {
    io,
    json: options.json === true,
    client() {
      if (!client) {
        const connection = resolveConnection(options, io.env, readProfileFile(profileFilePath(io.env)), profileFilePath(io.env));
        client = createApiClient({
          baseUrl: connection.baseUrl,
          apiKey: connection.apiKey,
          userAgent: 'mailservice-cli',
          ...(io.fetch ? { fetch: io.fetch } : {}),
        });
      }
      return client;
    },
  };
}

/** Every item of a paged list (in ../api/pages.ts: the MCP server's too). */
export { allPages } from '../api/pages';
