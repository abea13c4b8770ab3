/**
 * The local HTTPS webhook inbox on its own (the integration tests share one and never empty it all):
 * newest first, one endpoint's requests by path, and DELETE with a path or without.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebhookInbox, type WebhookInbox } from '#localstack/cloud/services/webhook-inbox';

let dir: string;
let inbox: WebhookInbox;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhook-inbox-'));
  inbox = await startWebhookInbox({ dir, port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await inbox.stop();
  rmSync(dir, { recursive: true, force: true });
});

function post(path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.request(`${inbox.url}${path.slice(1)}`, { method: 'POST', ca: readFileSync(inbox.caFile) }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(body);
  });
}

it('lists newest first, by path, and forgets one path or everything', async () => {
  for (const [path, body] of [
    ['/a', '1'],
    ['/b', '2'],
    ['/a', '3'],
    ['/a?x=1', '4'],
  ] as const)
    expect(await post(path, body)).toBe(200);
  expect(inbox.list().map((r) => r.body)).toEqual(['4', '3', '2', '1']);
  expect(inbox.list('/a').map((r) => r.body)).toEqual(['3', '1']);
  expect(inbox.list('/none')).toEqual([]);
  expect(inbox.clear('/a')).toBe(2);
  expect(inbox.list().map((r) => `${r.path} ${r.body}`)).toEqual(['/a?x=1 4', '/b 2']);
  expect(inbox.clear()).toBe(2);
  expect(inbox.list()).toEqual([]);
});

it("keeps 500 requests of each path: one busy endpoint never pushes out another's", async () => {
  expect(await post('/quiet', 'kept')).toBe(200);
  for (let batch = 0; batch < 11; batch++) await Promise.all(Array.from({ length: 50 }, (_, i) => post('/busy', String(batch * 50 + i))));
  expect(inbox.list('/busy')).toHaveLength(500);
  expect(inbox.list('/quiet').map((r) => r.body)).toEqual(['kept']);
  inbox.clear();
});
