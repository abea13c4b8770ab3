/**
 * The emulators' capped body reader (localstack/emulators/http-server.ts `readBodyUpTo`, used by SES, the Scheduler
 * and the provider emulators): a body within the cap whole, and one past it refused before its upload ends, the
 * rest drained so the refusal reaches the client.
 */
import http from 'node:http';
import { listenHttp, readBodyUpTo } from '#localstack/emulators/http-server';

const CAP = 1024;
let server: http.Server;
let url: string;
const seen: { tooLarge: boolean; bytes: number; beforeEnd: boolean }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let ended = false;
    req.on('end', () => (ended = true));
    void readBodyUpTo(req, CAP).then(({ body, tooLarge }) => {
      seen.push({ tooLarge, bytes: body.length, beforeEnd: !ended });
      res.writeHead(tooLarge ? 413 : 200).end(String(body.length));
    });
  });
  url = await listenHttp(server, {});
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** POSTs `chunks` one by one, `gapMs` apart: the answer's status and body. */
function post(chunks: Buffer[], gapMs = 0): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST' }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    const write = (i: number) => {
      if (i === chunks.length) return void req.end();
      req.write(chunks[i]);
      setTimeout(() => write(i + 1), gapMs);
    };
    write(0);
  });
}

it('a body within the cap is read whole, the cap itself included', async () => {
  expect(await post([Buffer.alloc(600), Buffer.alloc(CAP - 600)])).toEqual({ status: 200, text: String(CAP) });
  expect(seen.at(-1)).toMatchObject({ tooLarge: false, bytes: CAP });
});

it('a body past the cap is refused as soon as it crosses it, before the upload ends, and the client gets the refusal', async () => {
  const answer = await post([Buffer.alloc(CAP), Buffer.alloc(1), Buffer.alloc(CAP), Buffer.alloc(CAP)], 50);
  expect(answer).toEqual({ status: 413, text: '0' });
  expect(seen.at(-1)).toEqual({ tooLarge: true, bytes: 0, beforeEnd: true });
});
