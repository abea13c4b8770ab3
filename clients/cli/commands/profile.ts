/**
 * `mailservice profile set | list | use | show`: the profile file (config/profiles.ts), written with
 * mode 0600. `show` says which base URL and key a command would use now, and where each came from.
 */
import type { Command } from 'commander';
import { globalOptions } from '../context';
import { UsageError } from '../errors';
import { maskSecret, PROFILE_NAME, profileFilePath, readProfileFile, withProfile, writeProfileFile } from '../config/profiles';
import { resolveConnection } from '../config/resolve';
import type { CliIo } from '../io';
import { formatFields, formatTable, printJson } from '../output';

export function registerProfile(program: Command, io: CliIo): void {
  const profile = program
    .command('profile')
    .description(`saved connections (${'$MAILSERVICE_CONFIG'} or ~/.config/mailservice/config.json)`);
  profile
    .command('set <name>')
    .description('save (or change) a profile; the first one saved is the default')
    .option('--base-url <url>', 'the API, e.g. http://127.0.0.1:3000')
    .option('--api-key <key>', 'an API key (svc_...)')
    .action((name: string, _options: unknown, command: Command) => {
      // The program's own --base-url and --api-key take these flags wherever they are written.
      const options = globalOptions(command);
      if (!PROFILE_NAME.test(name)) throw new UsageError(`profile name "${name}": use 1-64 of A-Z a-z 0-9 _ . -`);
      if (options.baseUrl === undefined && options.apiKey === undefined)
        throw new UsageError('profile set needs --base-url, --api-key or both');
      if (options.baseUrl !== undefined) {
        try {
          new URL(options.baseUrl);
        } catch {
          throw new UsageError(`--base-url "${options.baseUrl}" is not a URL (e.g. http://127.0.0.1:3000)`);
        }
      }
      const path = profileFilePath(io.env);
      const file = withProfile(readProfileFile(path), name, { base_url: options.baseUrl, api_key: options.apiKey });
      writeProfileFile(path, file);
      io.out(`saved profile ${name} in ${path}${file.default_profile === name ? ' (the default)' : ''}\n`);
    });
  profile
    .command('use <name>')
    .description('make a saved profile the default')
    .action((name: string) => {
      const path = profileFilePath(io.env);
      const file = readProfileFile(path);
      if (!file.profiles[name]) throw new UsageError(`no profile "${name}" in ${path}`);
      writeProfileFile(path, { ...file, default_profile: name });
      io.out(`${name} is the default profile\n`);
    });
  profile
    .command('list')
    .description('the saved profiles (keys shortened)')
    .action((_options: unknown, command: Command) => {
      const file = readProfileFile(profileFilePath(io.env));
      const rows = Object.entries(file.profiles).map(([name, p]) => ({
        name,
        default: name === file.default_profile,
        base_url: p.base_url ?? null,
        api_key: maskSecret(p.api_key),
      }));
      if (globalOptions(command).json) return printJson(io, { profiles: rows });
      io.out(
        formatTable(
          ['name', 'default', 'base url', 'api key'],
          rows.map((r) => [r.name, r.default ? 'yes' : '', r.base_url, r.api_key]),
          `no profiles in ${profileFilePath(io.env)}`,
        ),
      );
    });
  profile
    .command('show')
    .description('the base URL and key a command would use now, and where each comes from')
    .action((_options: unknown, command: Command) => {
      const options = globalOptions(command);
      const path = profileFilePath(io.env);
      const connection = resolveConnection(options, io.env, readProfileFile(path), path);
      const shown = {
        base_url: connection.baseUrl,
        base_url_from: connection.sources.baseUrl,
        api_key: maskSecret(connection.apiKey),
        api_key_from: connection.sources.apiKey,
        config_file: path,
      };
      if (options.json) return printJson(io, shown);
      io.out(formatFields(Object.entries(shown)));
    });
}
