/** The stdio server's configuration from the environment (clients/mcp/config.ts). */
import { DEFAULT_BASE_URL, stdioConfigFromEnv } from '#clients/mcp/config';

describe('stdioConfigFromEnv', () => {
  it('needs MAILSERVICE_API_KEY, and says how to set it', () => {
    for (const env of [{}, { MAILSERVICE_API_KEY: '' }, { MAILSERVICE_API_KEY: '  ' }]) {
      const result = stdioConfigFromEnv(env);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toContain('MAILSERVICE_API_KEY is not set');
    }
  });

  it('defaults the base URL to the local API', () => {
    expect(stdioConfigFromEnv({ MAILSERVICE_API_KEY: 'svc_x' })).toEqual({
      ok: true,
      config: { apiKey: 'svc_x', baseUrl: DEFAULT_BASE_URL },
    });
    expect(DEFAULT_BASE_URL).toBe('http://127.0.0.1:3000');
  });

  it('takes MAILSERVICE_BASE_URL, and refuses one that is not an http(s) URL', () => {
    expect(
      stdioConfigFromEnv({ MAILSERVICE_API_KEY: 'svc_x', MAILSERVICE_BASE_URL: 'https://abc.execute-api.eu-west-1.amazonaws.com' }),
    ).toEqual({
      ok: true,
      config: { apiKey: 'svc_x', baseUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com' },
    });
    expect(stdioConfigFromEnv({ MAILSERVICE_API_KEY: 'svc_x', MAILSERVICE_BASE_URL: 'not a url' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('is not a URL'),
    });
    expect(stdioConfigFromEnv({ MAILSERVICE_API_KEY: 'svc_x', MAILSERVICE_BASE_URL: 'ftp://example.com' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('http(s)'),
    });
  });
});
