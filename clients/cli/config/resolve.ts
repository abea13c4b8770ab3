/**
 * Which API and key a command uses. Highest first:
 * 1. the flags `--base-url` and `--api-key`;
 * 2. a profile named with `--profile` (asking for one by name is a flag too);
 * 3. the environment: MAILSERVICE_BASE_URL, MAILSERVICE_API_KEY;
 * 4. the profile file's default profile (the first one set, or `profile use <name>`), unless --profile named another;
 * 5. the base URL http://127.0.0.1:3000 (`npm start`).
 * Each of the two values is resolved on its own, so a profile can give the key and the env the URL.
 */
import { CliFailure, UsageError } from '../errors';
import type { Profile, ProfileFile } from './profiles';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

export interface ConnectionFlags {
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
}

export interface Connection {
  baseUrl: string;
  apiKey: string;
  /** Where each value came from, for `profile show` and error messages. */
  sources: { baseUrl: string; apiKey: string };
}

export function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv, file: ProfileFile, filePath: string): Connection {
  let named: Profile | undefined;
  if (flags.profile !== undefined) {
    named = file.profiles[flags.profile];
    if (!named) {
      const known = Object.keys(file.profiles);
      throw new UsageError(
        `no profile "${flags.profile}" in ${filePath} (${known.length ? `profiles: ${known.join(', ')}` : 'it has none'}); add it with: mailservice profile set ${flags.profile} --base-url <url> --api-key <key>`,
      );
    }
  }
  // A profile named with --profile replaces the default one (its missing values come from the env or the defaults).
  const fallbackName = flags.profile === undefined ? file.default_profile : undefined;
  const fallback = fallbackName ? file.profiles[fallbackName] : undefined;
  const pick = (flag: string | undefined, fromNamed: string | undefined, fromEnv: string | undefined, fromDefault: string | undefined) => {
    if (flag) return { value: flag, source: 'flag' };
    if (fromNamed) return { value: fromNamed, source: `profile ${flags.profile}` };
    if (fromEnv) return { value: fromEnv, source: 'environment' };
    if (fromDefault) return { value: fromDefault, source: `profile ${fallbackName}` };
    return undefined;
  };
  const baseUrl = pick(flags.baseUrl, named?.base_url, env.MAILSERVICE_BASE_URL, fallback?.base_url) ?? {
    value: DEFAULT_BASE_URL,
    source: 'default',
  };
  const apiKey = pick(flags.apiKey, named?.api_key, env.MAILSERVICE_API_KEY, fallback?.api_key);
  if (!apiKey) {
    throw new CliFailure(
      'no API key: set MAILSERVICE_API_KEY, pass --api-key, or save a profile (mailservice profile set <name> --api-key svc_...)',
    );
  }
  try {
    new URL(baseUrl.value);
  } catch {
    throw new UsageError(`the base URL "${baseUrl.value}" (${baseUrl.source}) is not a URL: write it like ${DEFAULT_BASE_URL}`);
  }
  return { baseUrl: baseUrl.value, apiKey: apiKey.value, sources: { baseUrl: baseUrl.source, apiKey: apiKey.source } };
}
