/** Profile resolution (flags > --profile > env > default profile > default URL) and the profile file (mode 0600, kept values, bad files). */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { profileFilePath, readProfileFile, withProfile, type ProfileFile } from '#clients/cli/config/profiles';
import { DEFAULT_BASE_URL, resolveConnection } from '#clients/cli/config/resolve';
import { run } from './harness';
import { temporaryDir } from '../../support/temporary-dirs';

const FILE: ProfileFile = {
  default_profile: 'local',
  profiles: { local: { base_url: 'http://local:1', api_key: 'svc_local' }, staging: { api_key: 'svc_staging' } },
};
const resolve = (flags: Parameters<typeof resolveConnection>[0], env: NodeJS.ProcessEnv = {}, file = FILE) =>
  resolveConnection(flags, env, file, '/cfg.json');

describe('which API and key a command uses', () => {
  it('takes flags over everything', () => {
    expect(
      resolve(
        { baseUrl: 'http://flag:1', apiKey: 'svc_flag', profile: 'local' },
        { MAILSERVICE_BASE_URL: 'http://env:1', MAILSERVICE_API_KEY: 'svc_env' },
      ),
    ).toEqual({
      baseUrl: 'http://flag:1',
      apiKey: 'svc_flag',
      sources: { baseUrl: 'flag', apiKey: 'flag' },
    });
  });

  it('takes the environment over the default profile', () => {
    expect(resolve({}, { MAILSERVICE_API_KEY: 'svc_env' })).toMatchObject({
      baseUrl: 'http://local:1',
      apiKey: 'svc_env',
      sources: { baseUrl: 'profile local', apiKey: 'environment' },
    });
  });

  it('takes a profile named with --profile over the environment, and not the default profile for what it lacks', () => {
    expect(resolve({ profile: 'staging' }, { MAILSERVICE_API_KEY: 'svc_env' })).toMatchObject({
      baseUrl: DEFAULT_BASE_URL,
      apiKey: 'svc_staging',
    });
    expect(resolve({ profile: 'staging' }, { MAILSERVICE_BASE_URL: 'http://env:2' })).toMatchObject({
      baseUrl: 'http://env:2',
      sources: { baseUrl: 'environment' },
    });
  });

  it('uses the default profile, then the default URL', () => {
    expect(resolve({})).toMatchObject({ baseUrl: 'http://local:1', apiKey: 'svc_local' });
    expect(resolve({}, { MAILSERVICE_API_KEY: 'k' }, { profiles: {} })).toMatchObject({
      baseUrl: 'http://127.0.0.1:3000',
      sources: { baseUrl: 'default' },
    });
  });

  it('fails clearly without a key, with an unknown profile (usage) and with a base URL that is not a URL', () => {
    expect(() => resolve({}, {}, { profiles: {} })).toThrow('no API key: set MAILSERVICE_API_KEY');
    expect(() => resolve({ profile: 'prod' })).toThrow('no profile "prod" in /cfg.json (profiles: local, staging)');
    expect(() => resolve({ baseUrl: 'nope', apiKey: 'k' })).toThrow('the base URL "nope" (flag) is not a URL');
  });

  it('finds the file at $MAILSERVICE_CONFIG, else under $XDG_CONFIG_HOME or ~/.config', () => {
    expect(profileFilePath({ MAILSERVICE_CONFIG: '/x/c.json', HOME: '/h' })).toBe('/x/c.json');
    expect(profileFilePath({ XDG_CONFIG_HOME: '/xdg', HOME: '/h' })).toBe('/xdg/mailservice/config.json');
    expect(profileFilePath({ HOME: '/h' })).toBe('/h/.config/mailservice/config.json');
  });
});

describe('the profile file', () => {
  it('is written with mode 0600 by `profile set`, keeps values not given, and the first profile is the default', async () => {
    const dir = temporaryDir('cli-profile-');
    const path = join(dir, 'sub', 'config.json');
    writeFileSync(join(dir, 'unused'), '');
    const env = { MAILSERVICE_CONFIG: path };
    expect((await run(['profile', 'set', 'local', '--base-url', 'http://127.0.0.1:3000/', '--api-key', 'svc_one'], { env })).status).toBe(
      0,
    );
    expect((await run(['profile', 'set', 'local', '--api-key', 'svc_two_0123456789'], { env })).status).toBe(0);
    expect((await run(['profile', 'set', 'other', '--api-key', 'svc_three_0123456789'], { env })).status).toBe(0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      default_profile: 'local',
      profiles: { local: { base_url: 'http://127.0.0.1:3000', api_key: 'svc_two_0123456789' }, other: { api_key: 'svc_three_0123456789' } },
    });
    const list = await run(['profile', 'list'], { env });
    expect(list.stdout).toMatch(/local\s+yes\s+http:\/\/127\.0\.0\.1:3000\s+svc_two_01\.\.\./);
    expect(list.stdout).not.toContain('svc_three_0123456789');
    expect((await run(['profile', 'set', 'bad name', '--api-key', 'k'], { env })).status).toBe(2);
    expect((await run(['profile', 'set', 'x'], { env })).status).toBe(2);
  });

  it('refuses a file that is not JSON or has no profiles, naming it', () => {
    const dir = temporaryDir('cli-profile-');
    writeFileSync(join(dir, 'bad.json'), '{nope');
    writeFileSync(join(dir, 'other.json'), '{"x": 1}');
    expect(() => readProfileFile(join(dir, 'bad.json'))).toThrow(/bad\.json is not valid JSON/);
    expect(() => readProfileFile(join(dir, 'other.json'))).toThrow(/has no "profiles" object/);
    expect(readProfileFile(join(dir, 'absent.json'))).toEqual({ profiles: {} });
    expect(withProfile({ profiles: {} }, 'a', { api_key: 'k' })).toEqual({ default_profile: 'a', profiles: { a: { api_key: 'k' } } });
  });
});
