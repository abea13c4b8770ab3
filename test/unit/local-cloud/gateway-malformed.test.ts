/**
 * The local API gateway answers a request Node's HTTP parser refuses with the error envelope
 * (localstack/cloud/api/api-server.ts, configureGatewayServer), also when it comes on a kept-alive connection
 * after an answered request: the connection's last response being finished, the refusal is written, not the
 * socket dropped.
 */
import { connect } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configureGatewayServer } from '#localstack/cloud/api/api-server';

let server: Server;
let port: number;

beforeAll(async () => {
  server = configureGatewayServer(createServer((_req, res) => res.end('ok')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Writes each chunk after the previous answer arrived; resolves with everything read until the server closes. */
function converse(chunks: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const answers: string[] = [];
    let current = '';
    let next = 0;
    const send = () => socket.write(chunks[next++]!);
    socket.on('connect', send);
    socket.on('data', (data) => {
      current += data.toString();
      if (next < chunks.length && current.endsWith('ok')) {
        answers.push(current);
        current = '';
        send();
      }
    });
    socket.on('close', () => resolve([...answers, current]));
    socket.on('error', reject);
  });
}

it('answers a malformed request after an answered one on the same connection with 400 and the envelope', async () => {
  const answers = await converse(['GET / HTTP/1.1\r\nHost: x\r\n\r\n', 'NOT A REQUEST\r\n\r\n']);
  expect(answers[0]).toMatch(/^HTTP\/1\.1 200 OK/);
  expect(answers[1]).toMatch(/^HTTP\/1\.1 400 Bad Request/);
  expect(answers[1]).toContain('"code":"validation_error"');
});

it('answers headers over 16 KB with 431 and the envelope', async () => {
  const [answer] = await converse([`GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]);
  expect(answer).toMatch(/^HTTP\/1\.1 431 /);
  expect(answer).toContain('"code":"payload_too_large"');
});
