import { portFromEnv, relaySettingsFromEnv, tlsFromEnv } from '#shared/doors/smtp/relay-config';

describe('relay settings from the environment', () => {
  it('has the documented defaults', () => {
    expect(relaySettingsFromEnv({})).toEqual({
      maxClients: 500,
      idleTimeoutMs: 60_000,
      closeTimeoutMs: 25_000,
      maxBufferedBytes: 1024 * 1024 * 1024,
      authThrottle: { maxFailures: 5, windowMs: 300_000 },
    });
    expect(portFromEnv({}, 587)).toBe(587);
    expect(tlsFromEnv({})).toBeNull();
  });

  it('reads overrides and refuses nonsense with the variable name', () => {
    expect(relaySettingsFromEnv({ SMTP_MAX_CLIENTS: '20', SMTP_IDLE_TIMEOUT_S: '5', SMTP_HOSTNAME: 'smtp.example.com' })).toMatchObject({
      maxClients: 20,
      idleTimeoutMs: 5000,
      hostname: 'smtp.example.com',
    });
    expect(() => relaySettingsFromEnv({ SMTP_MAX_CLIENTS: 'lots' })).toThrow(/SMTP_MAX_CLIENTS/);
    expect(() => portFromEnv({ SMTP_PORT: '70000' }, 587)).toThrow(/SMTP_PORT/);
  });

  it('takes the TLS PEM from the environment (Secrets Manager), both or neither', () => {
    expect(tlsFromEnv({ SMTP_TLS_KEY: 'KEY\\nLINE', SMTP_TLS_CERT: 'CERT' })).toEqual({ key: 'KEY\nLINE', cert: 'CERT' });
    expect(() => tlsFromEnv({ SMTP_TLS_KEY: 'KEY' })).toThrow(/SMTP_TLS_CERT/);
    expect(() => tlsFromEnv({ SMTP_TLS_KEY_FILE: '/k.pem' })).toThrow(/SMTP_TLS_CERT_FILE/);
  });
});
