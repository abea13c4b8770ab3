/**
 * The control API over HTTP as the local cloud serves it (localstack/emulators/dns/routes.ts, one operation a
 * module in localstack/emulators/dns/operations/): each path's answer and status, a refusal as 400
 * validation_error, and a method or path not in the table left to the caller (undefined).
 */
import { startDnsEmulator, type DnsEmulator } from '#localstack/emulators/dns';

let emu: DnsEmulator;

beforeAll(async () => {
  emu = await startDnsEmulator();
});

afterAll(async () => {
  await emu.stop();
});

const request = (query: string, body?: unknown) => ({ query: new URLSearchParams(query), json: async () => body });

test('PUT, GET and DELETE /_local/dns/records answer the set, the sets and how many were removed', async () => {
  const set = { name: 'Control.Example.TEST.', type: 'TXT', values: ['token'] };
  expect(await emu.answerControl('PUT', '/_local/dns/records', request('', set))).toEqual({
    status: 200,
    body: { record: { name: 'control.example.test', type: 'TXT', values: ['token'], ttl: 60 } },
  });
  expect(await emu.answerControl('GET', '/_local/dns/records', request('name=example.test'))).toEqual({
    status: 200,
    body: { records: [{ name: 'control.example.test', type: 'TXT', values: ['token'], ttl: 60 }] },
  });
  expect(await emu.answerControl('DELETE', '/_local/dns/records', request('name=control.example.test&type=MX'))).toEqual({
    status: 200,
    body: { deleted: 0 },
  });
  expect(await emu.answerControl('DELETE', '/_local/dns/records', request('name=control.example.test'))).toEqual({
    status: 200,
    body: { deleted: 1 },
  });
});

test('a refusal is 400 validation_error with its message', async () => {
  const refused = async (method: string, query: string, body?: unknown) =>
    (await emu.answerControl(method, '/_local/dns/records', request(query, body))) as {
      status: number;
      body: { error: { code: string; message: string } };
    };
  expect(await refused('DELETE', '')).toEqual({ status: 400, body: { error: { message: 'name is required', code: 'validation_error' } } });
  const notJson = await refused('PUT', '', undefined);
  expect(notJson.status).toBe(400);
  expect(notJson.body.error).toEqual({ code: 'validation_error', message: 'record set must be an object { name, type, values, ttl? }' });
  expect((await refused('DELETE', 'name=a.test&type=SRV')).body.error.code).toBe('validation_error');
});

test('GET /_local/dns/queries lists the questions; other methods and paths are not the API', async () => {
  expect(await emu.answerControl('GET', '/_local/dns/queries', request('name=nothing.test'))).toEqual({
    status: 200,
    body: { queries: [] },
  });
  expect(await emu.answerControl('POST', '/_local/dns/records', request(''))).toBeUndefined();
  expect(await emu.answerControl('GET', '/_local/dns/other', request(''))).toBeUndefined();
});
