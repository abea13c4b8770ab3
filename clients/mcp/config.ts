/**
 * The stdio server's configuration from the environment: MAILSERVICE_API_KEY (required) and
 * MAILSERVICE_BASE_URL (default http://127.0.0.1:3000, `npm start`'s API). A problem is a message for
 * the user, not an exception: ./stdio.ts prints it to stderr and exits 1.
 */

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

export interface StdioConfig {
  apiKey: string;
  baseUrl: string;
}

export type ConfigResult = { ok: true; config: StdioConfig } | { ok: false; message: string };

export function stdioConfigFromEnv(env: NodeJS.ProcessEnv): ConfigResult {
  const apiKey = env.MAILSERVICE_API_KEY?.trim() ?? '';
  if (apiKey === '') {
    return {
      ok: false,
      message:
        'mailservice-mcp: MAILSERVICE_API_KEY is not set. Set it to an API key (svc_...) of your account, e.g. MAILSERVICE_API_KEY=svc_... npx mailservice-mcp; ' +
        'prefer a key with only the scopes the agent needs (docs/mcp.md).',
    };
  }
  const baseUrl = env.MAILSERVICE_BASE_URL?.trim() || DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return {
      ok: false,
      message: `mailservice-mcp: MAILSERVICE_BASE_URL is not a URL: ${JSON.stringify(baseUrl)} (e.g. ${DEFAULT_BASE_URL} or your API Gateway URL).`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `mailservice-mcp: MAILSERVICE_BASE_URL must be an http(s) URL, not ${JSON.stringify(baseUrl)}.` };
  }
  return { ok: true, config: { apiKey, baseUrl } };
}
