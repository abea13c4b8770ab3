/**
 * The fake Cloudflare API's calls made directly (each in its module of
 * localstack/emulators/cloudflare/operations/), on a state of their own over an in-memory record store: what the HTTP
 * tests (./cloudflare.test.ts) do not reach, such as a zone's and a record's details, PATCH over the
 * record's own fields, a PUT moving a record to another name, and the routing table resolving a zone
 * before it looks at the method.
 */
import { createDnsRecord } from '#localstack/emulators/cloudflare/operations/create-dns-record';
import { getDnsRecord } from '#localstack/emulators/cloudflare/operations/get-dns-record';
import { getZone } from '#localstack/emulators/cloudflare/operations/get-zone';
import { editDnsRecord } from '#localstack/emulators/cloudflare/operations/edit-dns-record';
import { overwriteDnsRecord } from '#localstack/emulators/cloudflare/operations/update-dns-record';
import { verifyToken } from '#localstack/emulators/cloudflare/operations/verify-token';
import { findRecord } from '#localstack/emulators/cloudflare/records';
import { answerRequest } from '#localstack/emulators/cloudflare/routes';
import { openCloudflareState, type CloudflareState } from '#localstack/emulators/cloudflare/state';
import { addZone } from '#localstack/emulators/cloudflare/zones';
import { RecordStore } from '#localstack/emulators/dns/store';
import type { DnsRecordType } from '#localstack/emulators/dns/types';

function newState(): CloudflareState {
  const store = new RecordStore(undefined);
  const dns = {
    setRecords: (set: unknown) => store.set(set),
    deleteRecords: (name: string, type?: DnsRecordType) => store.delete(name, type),
    listRecords: (name?: string) => store.all(name),
  };
  return openCloudflareState({ dns, log: () => undefined });
}

const resultOf = (reply: { body: unknown }) => (reply.body as { result: Record<string, unknown> }).result;

test('Verify Token and Zone Details; an unknown zone is 404 code 7003', () => {
  const state = newState();
  const zone = addZone(state, 'details.test');
  expect(resultOf(verifyToken())).toMatchObject({ status: 'active' });
  expect(getZone(state, zone.id)).toMatchObject({
    status: 200,
    body: { success: true, result: { id: zone.id, name: 'details.test', status: 'active' } },
  });
  expect(() => getZone(state, 'none')).toThrow(expect.objectContaining({ status: 404, code: 7003 }));
});

test('DNS Record Details, and PATCH over the record: an MX keeps its content when only its priority changes', () => {
  const state = newState();
  const zone = addZone(state, 'edit.test');
  const created = resultOf(createDnsRecord(state, zone, { type: 'MX', name: 'inbound', content: 'mx.edit.test', priority: 10 }));
  expect(resultOf(getDnsRecord(zone, findRecord(state, zone, created.id as string)))).toEqual(created);
  const edited = resultOf(editDnsRecord(state, zone, findRecord(state, zone, created.id as string), { priority: 20 }));
  expect(edited).toMatchObject({ name: 'inbound.edit.test', content: 'mx.edit.test', priority: 20 });
  expect(state.dns.listRecords('inbound.edit.test')).toEqual([expect.objectContaining({ type: 'MX', values: ['20 mx.edit.test'] })]);
});

test('PUT to another name moves the value: the old set keeps its other values', () => {
  const state = newState();
  const zone = addZone(state, 'move.test');
  const first = resultOf(createDnsRecord(state, zone, { type: 'A', name: 'www', content: '192.0.2.1' }));
  createDnsRecord(state, zone, { type: 'A', name: 'www', content: '192.0.2.2' });
  const moved = resultOf(
    overwriteDnsRecord(state, zone, findRecord(state, zone, first.id as string), { type: 'A', name: 'api', content: '192.0.2.1' }),
  );
  expect(moved).toMatchObject({ name: 'api.move.test', content: '192.0.2.1' });
  expect(state.dns.listRecords('www.move.test')).toEqual([expect.objectContaining({ values: ['192.0.2.2'] })]);
});

test('the routing table: a zone in the path is looked up before the method; anything else is 404 code 7000', () => {
  const state = newState();
  const zone = addZone(state, 'routes.test');
  const request = { query: new URLSearchParams(), body: {} };
  expect(() => answerRequest(state, 'DELETE', '/client/v4/zones/none/dns_records', request)).toThrow(
    expect.objectContaining({ code: 7003 }),
  );
  expect(() => answerRequest(state, 'DELETE', `/client/v4/zones/${zone.id}/dns_records`, request)).toThrow(
    expect.objectContaining({ status: 404, code: 7000 }),
  );
  expect(answerRequest(state, 'GET', `/zones/${zone.id}`, request).status).toBe(200);
});
