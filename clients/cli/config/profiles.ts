/**
 * The profile file (~/.config/mailservice/config.json, or $MAILSERVICE_CONFIG): named pairs of base URL
 * and API key, so `--profile staging` replaces two flags. Written with mode 0600 (it holds secrets), in a
 * folder of mode 0700.
 *
 * {"default_profile": "local", "profiles": {"local": {"base_url": "http://127.0.0.1:3000", "api_key": "svc_..."}}}
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliFailure } from '../errors';

export interface Profile {
  base_url?: string;
  api_key?: string;
}

export interface ProfileFile {
  default_profile?: string;
  profiles: Record<string, Profile>;
}

/** Where the file is: $MAILSERVICE_CONFIG, else ~/.config/mailservice/config.json ($XDG_CONFIG_HOME when set). */
export function profileFilePath(env: NodeJS.ProcessEnv): string {
  if (env.MAILSERVICE_CONFIG) return env.MAILSERVICE_CONFIG;
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(configHome, 'mailservice', 'config.json');
}

/** The file's profiles; an absent file is an empty one, a file that is not ours a clear failure. */
export function readProfileFile(path: string): ProfileFile {
  if (!existsSync(path)) return { profiles: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliFailure(`${path} is not valid JSON (${(error as Error).message}): fix or remove it`);
  }
  const file = parsed as Partial<ProfileFile>;
  if (typeof file !== 'object' || file === null || typeof file.profiles !== 'object' || file.profiles === null) {
    throw new CliFailure(`${path} has no "profiles" object: fix or remove it`);
  }
  return { ...(file.default_profile ? { default_profile: file.default_profile } : {}), profiles: file.profiles };
}

/** Writes the file with mode 0600 (also when it existed with a wider mode). */
export function writeProfileFile(path: string, file: ProfileFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export const PROFILE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** The file with one profile set (fields not given are kept); the first profile becomes the default. */
export function withProfile(file: ProfileFile, name: string, changes: Profile): ProfileFile {
  const profile = { ...file.profiles[name] };
  if (changes.base_url !== undefined) profile.base_url = changes.base_url.replace(/\/+$/, '');
  if (changes.api_key !== undefined) profile.api_key = changes.api_key;
  return { default_profile: file.default_profile ?? name, profiles: { ...file.profiles, [name]: profile } };
}

/** A secret as `profile list` shows it: its first characters only. */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return '-';
  return secret.length <= 12 ? `${secret.slice(0, 4)}...` : `${secret.slice(0, 10)}...`;
}
