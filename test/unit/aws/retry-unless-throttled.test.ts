/**
 * The send client's retries (shared/adapters/aws/ses-clients.ts, createSesSendClient) against a local HTTP
 * server answering as SES does: a 429 TooManyRequestsException is tried once (the send worker paces and
 * holds; an SDK retry would be one more send over SES's rate), a 500 is tried the SDK's 3 times, and the
 * default client still retries a 429.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { createSesClient, createSesSendClient } from '#shared/adapters/aws/ses-clients';
import { loadConfig } from '#shared/config/config';

describe('createSesSendClient: SES throttling is not retried by the SDK', () => {
  let server: Server;
  let status = 429;
  let requests = 0;
  let endpoint = '';
  // The local server checks no signature; the SDK needs some credentials to sign with.
  const credentials = { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' };
  const saved = { AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY };

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => {
        const type = status === 429 ? 'TooManyRequestsException' : 'InternalFailure';
        res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type });
        res.end(JSON.stringify({ message: status === 429 ? 'Maximum sending rate exceeded.' : 'Internal failure.' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    Object.assign(process.env, credentials);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  const config = () => {
    const base = loadConfig({ ...process.env, AWS_REGION: 'us-east-1' });
    return { ...base, endpoints: { ...base.endpoints, ses: endpoint } };
  };
  const send = async (client: SESv2Client): Promise<{ name: string; requests: number }> => {
    requests = 0;
    const error = await client
      .send(
        new SendEmailCommand({
          FromEmailAddress: 'a@example.com',
          Destination: { ToAddresses: ['b@example.com'] },
          Content: { Raw: { Data: Buffer.from('x') } },
        }),
      )
      .then(
        () => null,
        (e: Error) => e,
      );
    client.destroy();
    return { name: error?.name ?? 'none', requests };
  };

  it('answers a 429 after one request', async () => {
    status = 429;
    expect(await send(createSesSendClient(config()))).toEqual({ name: 'TooManyRequestsException', requests: 1 });
  });

  it('still retries a server error, 3 attempts in all', async () => {
    status = 500;
    expect(await send(createSesSendClient(config()))).toEqual({ name: 'InternalFailure', requests: 3 });
  });

  it('the client for everything else keeps the SDK’s retries of a 429', async () => {
    status = 429;
    expect(await send(createSesClient(config()))).toEqual({ name: 'TooManyRequestsException', requests: 3 });
  }, 20_000);
});
