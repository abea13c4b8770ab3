/**
 * The sealed-secret path of the dashboard's OpenID Connect sign-in (docs/dashboard.md, "Configuring it on
 * AWS"): a client secret sealed for its issuer and client id (as `admin oidc seal-secret` seals it), opened by
 * the dashboard's services (shared/services/oidc.ts) on the first sign-in, and used by openid-client as a
 * confidential client (client_secret_basic) against the local OpenID provider's confidential client. A wrong
 * secret, or one sealed for another client, signs no one in. In process: the provider on a loopback port, the
 * flow followed with fetch as a browser would, stopping at the redirect back to the callback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { LocalSecretBox } from '#shared/adapters/secrets/local-secret-box';
import { oidcSecretContext, oidcSettingsFromValues, type OidcSettings } from '#shared/domain/dashboard/oidc';
import { OidcProviderError } from '#shared/ports/oidc-provider';
import { buildOidc } from '#shared/services/oidc';
import { LOCAL_OIDC_CLIENT_ID, startOidcEmulator, type OidcEmulator } from '#localstack/emulators/oidc';

const REDIRECT = 'http://127.0.0.1:9/dashboard/sign-in/oidc/callback';
const SECRET = `s3cret-${randomBytes(8).toString('hex')}`;
const CONFIDENTIAL = `${LOCAL_OIDC_CLIENT_ID}-confidential`;

let emulator: OidcEmulator;
let keyDir: string;
let box: LocalSecretBox;

beforeAll(async () => {
  emulator = await startOidcEmulator({ host: '127.0.0.1', port: 0, redirectUris: [REDIRECT], confidentialSecret: SECRET });
  keyDir = mkdtempSync(join(tmpdir(), 'oidc-secret-'));
  box = new LocalSecretBox(join(keyDir, 'secrets.key'));
});

afterAll(async () => {
  await emulator?.stop();
  rmSync(keyDir, { recursive: true, force: true });
});

/** The settings of the confidential client with `secret` sealed for `sealedFor` (default: these settings). */
async function settingsWith(secret: string, sealedFor?: Pick<OidcSettings, 'issuer' | 'clientId'>): Promise<OidcSettings> {
  const unsealed = oidcSettingsFromValues({
    issuer: emulator.issuer,
    clientId: CONFIDENTIAL,
    label: 'Local',
    allowedDomains: '',
    sealedClientSecret: '',
  })!;
  const sealed = await box.seal(secret, oidcSecretContext(sealedFor ?? unsealed));
  return oidcSettingsFromValues({
    issuer: emulator.issuer,
    clientId: CONFIDENTIAL,
    label: 'Local',
    allowedDomains: '',
    sealedClientSecret: sealed,
  })!;
}

/** The browser's part: the authorization URL, the provider's login form with `login`, and the callback's query. */
async function signInAtProvider(authorizationUrl: URL, login: string): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      cookies.set(name!.trim(), value.join('='));
    }
  };
  const header = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  let url = authorizationUrl;
  for (let step = 0; step < 10; step++) {
    if (url.href.startsWith(REDIRECT)) return url.searchParams;
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: header() } });
    keep(response);
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url);
      continue;
    }
    const page = await response.text();
    const action = new URL(/action="([^"]+)"/.exec(page)![1]!, url);
    const submitted = await fetch(action, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'unchecked' }),
    });
    keep(submitted);
    url = new URL(submitted.headers.get('location')!, action);
  }
  throw new Error(`never sent back to the callback (last: ${url.href})`);
}

async function flow(settings: OidcSettings, login: string) {
  const { oidc } = buildOidc({ oidc: settings }, { secretBox: box });
  const checks = {
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
    codeVerifier: randomBytes(32).toString('base64url'),
    redirectUri: REDIRECT,
  };
  const authorizationUrl = await oidc!.provider.authorizationUrl({
    redirectUri: REDIRECT,
    state: checks.state,
    nonce: checks.nonce,
    codeChallenge: createHash('sha256').update(checks.codeVerifier).digest('base64url'),
  });
  const query = await signInAtProvider(authorizationUrl, login);
  return oidc!.provider.exchange(query, checks);
}

test('a secret sealed for the issuer and client signs the person in as a confidential client', async () => {
  const claims = await flow(await settingsWith(SECRET), 'Ada@Example.com');
  expect(claims).toEqual({ sub: 'Ada@Example.com', email: 'ada@example.com', email_verified: true });
});

test('a wrong secret is refused by the provider at the code exchange (invalid, not a crash)', async () => {
  const error = await flow(await settingsWith('not-the-secret'), 'ada@example.com').catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(OidcProviderError);
  expect((error as OidcProviderError).kind).toBe('invalid');
});

test('a secret sealed for another client does not open (the seal is bound to issuer and client id): misconfigured, which the sign-in answers 503', async () => {
  const settings = await settingsWith(SECRET, { issuer: emulator.issuer, clientId: 'another-client' });
  const error = await flow(settings, 'ada@example.com').catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(OidcProviderError);
  expect((error as OidcProviderError).kind).toBe('misconfigured');
  expect((error as Error).message).toContain('seal the secret again');
});
