/**
 * Where each provider's API lives. Real hosts by default; each can be moved by an environment variable
 * (the local cloud points them at the provider emulator, served under a path prefix such as
 * http://127.0.0.1:4599/sendgrid), so paths are joined onto a base without dropping its prefix.
 */

export interface ProviderBaseUrls {
  sendgrid: string;
  sendgridEu: string;
  postmark: string;
  mailgun: string;
  mailgunEu: string;
}

const DEFAULTS: ProviderBaseUrls = {
  sendgrid: 'https://api.sendgrid.com',
  sendgridEu: 'https://api.eu.sendgrid.com',
  postmark: 'https://api.postmarkapp.com',
  mailgun: 'https://api.mailgun.net',
  mailgunEu: 'https://api.eu.mailgun.net',
};

const VARIABLES: Record<keyof ProviderBaseUrls, string> = {
  sendgrid: 'PROVIDER_SENDGRID_URL',
  sendgridEu: 'PROVIDER_SENDGRID_EU_URL',
  postmark: 'PROVIDER_POSTMARK_URL',
  mailgun: 'PROVIDER_MAILGUN_URL',
  mailgunEu: 'PROVIDER_MAILGUN_EU_URL',
};

/** The base URLs from `env` (an unset or empty variable keeps the real host), without trailing slashes. */
export function providerBaseUrls(env: NodeJS.ProcessEnv = process.env): ProviderBaseUrls {
  const pick = (name: keyof ProviderBaseUrls): string => {
    const value = env[VARIABLES[name]]?.trim();
    return trimSlashes(value ? value : DEFAULTS[name]);
  };
  return {
    sendgrid: pick('sendgrid'),
    sendgridEu: pick('sendgridEu'),
    postmark: pick('postmark'),
    mailgun: pick('mailgun'),
    mailgunEu: pick('mailgunEu'),
  };
}

/**
 * `base` + `path` (+ `query`), keeping any path prefix of `base`: joinUrl('http://h/sendgrid', '/v3/scopes')
 * is http://h/sendgrid/v3/scopes. Query values are encoded; undefined ones are left out.
 */
export function joinUrl(base: string, path: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return `${trimSlashes(base)}${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}
