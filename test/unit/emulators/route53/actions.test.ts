/**
 * The Route 53 emulator's actions called directly (each in its module of localstack/emulators/route53/operations/),
 * on a state of their own over an in-memory record store: what the SDK tests (./route53.test.ts) do not
 * reach, such as the parameters one needs another, the synthesised SOA and NS, a batch replacing a TXT with a CNAME,
 * the routing table resolving a zone before it looks at the method, and the XML read (fast-xml-parser: entities,
 * lists, DOCTYPE and malformed bodies) and written (the exact bytes of an answer).
 */
import { RecordStore } from '#localstack/emulators/dns/store';
import type { DnsRecordType } from '#localstack/emulators/dns/types';
import { changeResourceRecordSets } from '#localstack/emulators/route53/operations/change-resource-record-sets';
import { recordChange } from '#localstack/emulators/route53/changes';
import { errorDocument } from '#localstack/emulators/route53/encode';
import { Route53Fault } from '#localstack/emulators/route53/errors';
import { createHostedZone } from '#localstack/emulators/route53/operations/create-hosted-zone';
import { getChange } from '#localstack/emulators/route53/operations/get-change';
import { listHostedZonesByName } from '#localstack/emulators/route53/operations/list-hosted-zones-by-name';
import { listResourceRecordSets } from '#localstack/emulators/route53/operations/list-resource-record-sets';
import { answerRequest } from '#localstack/emulators/route53/routes';
import { openRoute53State, type Route53State } from '#localstack/emulators/route53/state';
import { child, children, readXmlBody, textOf } from '#localstack/emulators/route53/request';
import { addZone } from '#localstack/emulators/route53/zones';

function newState(syncDelayMs = 0): Route53State {
  const store = new RecordStore(undefined);
  const dns = {
    setRecords: (set: unknown) => store.set(set),
    deleteRecords: (name: string, type?: DnsRecordType) => store.delete(name, type),
    listRecords: (name?: string) => store.all(name),
  };
  return openRoute53State({ dns, syncDelayMs, log: () => undefined });
}

const xmlBody = (xml: string) => readXmlBody(Buffer.from(xml, 'utf8'));
const query = (params: Record<string, string> = {}) => new URLSearchParams(params);
const change = (action: string, name: string, type: string, values: string[]) =>
  `<Change><Action>${action}</Action><ResourceRecordSet><Name>${name}</Name><Type>${type}</Type><TTL>300</TTL><ResourceRecords>${values.map((v) => `<ResourceRecord><Value>${v}</Value></ResourceRecord>`).join('')}</ResourceRecords></ResourceRecordSet></Change>`;
const batch = (...changes: string[]) =>
  xmlBody(
    `<ChangeResourceRecordSetsRequest><ChangeBatch><Changes>${changes.join('')}</Changes></ChangeBatch></ChangeResourceRecordSetsRequest>`,
  );

test('CreateHostedZone: 201 with the zone URL in Location; Name and CallerReference required', () => {
  const state = newState();
  const reply = createHostedZone(
    state,
    xmlBody('<CreateHostedZoneRequest><Name>made.test.</Name><CallerReference>ref</CallerReference></CreateHostedZoneRequest>'),
  );
  expect(reply.status).toBe(201);
  expect(reply.headers?.location).toBe(`https://route53.amazonaws.com/2013-04-01/hostedzone/${state.zones[0]!.id}`);
  expect(reply.xml).toContain('<Name>made.test.</Name>');
  expect(() => createHostedZone(state, xmlBody('<CreateHostedZoneRequest><Name>x.test</Name></CreateHostedZoneRequest>'))).toThrow(
    expect.objectContaining({ status: 400, code: 'InvalidInput' }),
  );
});

test('ListHostedZonesByName: hostedzoneid needs dnsname; pages continue at NextDNSName and NextHostedZoneId', () => {
  const state = newState();
  const [first, second] = [addZone(state, 'same.test'), addZone(state, 'same.test')].sort((a, b) => a.id.localeCompare(b.id));
  expect(() => listHostedZonesByName(state, query({ hostedzoneid: first!.id }))).toThrow(expect.objectContaining({ code: 'InvalidInput' }));
  const page = listHostedZonesByName(state, query({ dnsname: 'same.test', maxitems: '1' })).xml;
  expect(page).toContain(`<Id>/hostedzone/${first!.id}</Id>`);
  expect(page).toContain(
    `<IsTruncated>true</IsTruncated><NextDNSName>same.test.</NextDNSName><NextHostedZoneId>${second!.id}</NextHostedZoneId>`,
  );
  const next = listHostedZonesByName(state, query({ dnsname: 'same.test', hostedzoneid: second!.id })).xml;
  expect(next).toContain(`<Id>/hostedzone/${second!.id}</Id>`);
  expect(next).not.toContain(`<Id>/hostedzone/${first!.id}</Id>`);
});

test('ListResourceRecordSets: NS and SOA synthesised at the apex, in Route 53 order; type needs name', () => {
  const state = newState();
  const zone = addZone(state, 'sets.test');
  changeResourceRecordSets(state, zone, batch(change('CREATE', 'www.sets.test', 'A', ['192.0.2.1'])));
  const xml = listResourceRecordSets(state, zone, query()).xml;
  expect([...xml.matchAll(/<Name>([^<]+)<\/Name><Type>([^<]+)<\/Type>/g)].map((m) => `${m[1]} ${m[2]}`)).toEqual([
    'sets.test. NS',
    'sets.test. SOA',
    'www.sets.test. A',
  ]);
  expect(() => listResourceRecordSets(state, zone, query({ type: 'A' }))).toThrow(expect.objectContaining({ code: 'InvalidInput' }));
});

test('ChangeResourceRecordSets: a TXT replaced by a CNAME in one batch is written; a CNAME beside a TXT is refused', () => {
  const state = newState();
  const zone = addZone(state, 'swap.test');
  changeResourceRecordSets(state, zone, batch(change('CREATE', 'rp.swap.test', 'TXT', ['"x"'])));
  expect(() => changeResourceRecordSets(state, zone, batch(change('CREATE', 'rp.swap.test', 'CNAME', ['bounces.test'])))).toThrow(
    expect.objectContaining({
      code: 'InvalidChangeBatch',
      message: expect.stringContaining('RRSet of type CNAME with DNS name rp.swap.test. is not permitted'),
    }),
  );
  const reply = changeResourceRecordSets(
    state,
    zone,
    batch(change('DELETE', 'rp.swap.test', 'TXT', ['"x"']), change('CREATE', 'rp.swap.test', 'CNAME', ['bounces.test'])),
  );
  expect(reply.xml).toContain('<Status>PENDING</Status>');
  expect(state.dns.listRecords('rp.swap.test')).toEqual([expect.objectContaining({ type: 'CNAME', values: ['bounces.test'] })]);
  expect(() => changeResourceRecordSets(state, zone, batch())).toThrow(expect.objectContaining({ code: 'InvalidInput' }));
});

test('GetChange: by id with or without /change/, PENDING until syncDelayMs has passed; NoSuchChange else', () => {
  const state = newState(60_000);
  const zone = addZone(state, 'wait.test');
  const id = /<Id>\/change\/([^<]+)<\/Id>/.exec(
    changeResourceRecordSets(state, zone, batch(change('UPSERT', 'wait.test', 'TXT', ['"y"']))).xml,
  )![1]!;
  expect(getChange(state, `/change/${id}`).xml).toContain('<Status>PENDING</Status>');
  state.changes.get(id)!.syncAtMs = Date.now();
  expect(getChange(state, id).xml).toContain('<Status>INSYNC</Status>');
  expect(() => getChange(state, 'CNONE')).toThrow(expect.objectContaining({ status: 404, code: 'NoSuchChange' }));
});

test('the routing table: a zone in the path is looked up before the method; anything else is UnknownOperationException', () => {
  const state = newState();
  const zone = addZone(state, 'routes.test');
  const request = { query: query(), body: () => xmlBody('<x/>') };
  expect(() => answerRequest(state, 'PUT', '/2013-04-01/hostedzone/ZNONE/rrset', request)).toThrow(
    expect.objectContaining({ code: 'NoSuchHostedZone' }),
  );
  expect(() => answerRequest(state, 'PUT', `/2013-04-01/hostedzone/${zone.id}/rrset`, request)).toThrow(
    expect.objectContaining({ status: 404, code: 'UnknownOperationException' }),
  );
  expect(answerRequest(state, 'GET', `/2013-04-01/hostedzone/${zone.id}/rrset/`, request).status).toBe(200);
});

test('a request body: XML entities and numeric references decoded, others kept; CDATA, prefixes and attributes as Route 53 reads them', () => {
  const body = xmlBody(
    '<?xml version="1.0" encoding="UTF-8"?><r:Req xmlns:r="https://route53.amazonaws.com/doc/2013-04-01/" a="1"><!-- c -->' +
      '<r:Comment> a &amp; b &lt;c&gt; &quot;&apos;&#x0A;&#65;&#x1F600; &nbsp;&foo; </r:Comment><Raw><![CDATA[ <x> &amp; ]]></Raw>' +
      '<Changes><Change><Action>UPSERT</Action></Change></Changes><Empty/><Name>first</Name><Name>second</Name></r:Req>',
  );
  expect(textOf(body, 'Comment')).toBe('a & b <c> "\'\nA\u{1F600} &nbsp;&foo;');
  expect(textOf(body, 'Raw')).toBe('<x> &amp;');
  // A list of one is a list; an element named twice is its first, as before.
  expect(children(child(body, 'Changes'), 'Change').map((c) => textOf(c, 'Action'))).toEqual(['UPSERT']);
  expect(textOf(body, 'Name')).toBe('first');
  expect(textOf(body, 'Empty')).toBe('');
  expect(textOf(body, 'Missing')).toBeUndefined();
});

test.each([
  ['not XML', 'not xml'],
  ['empty', ''],
  ['unclosed', '<a><b></b>'],
  ['mismatched', '<a><b></a></b>'],
  ['two roots', '<a/><b/>'],
  ['text before the root', 'x<a/>'],
  ['a bare &', '<a>&</a>'],
  ['a DOCTYPE with an entity (never expanded)', '<!DOCTYPE a [<!ENTITY e "expanded">]><a><Name>&e;</Name></a>'],
  ['an external entity', '<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>'],
])('a body that is %s is 400 InvalidInput', (_what, xml) => {
  expect(() => xmlBody(xml)).toThrow(
    expect.objectContaining({ status: 400, code: 'InvalidInput', message: expect.stringMatching(/^The XML document is malformed: /) }),
  );
});

test('an answer is written byte for byte: declaration, Route 53 namespace, elements in order, text escaped', () => {
  const state = newState(60_000);
  const change = recordChange(state, `a <b> & "c" 'd'`);
  expect(getChange(state, change.id).xml).toBe(
    '<?xml version="1.0" encoding="UTF-8"?>\n<GetChangeResponse xmlns="https://route53.amazonaws.com/doc/2013-04-01/">' +
      `<ChangeInfo><Id>/change/${change.id}</Id><Status>PENDING</Status><SubmittedAt>${change.submitted_at}</SubmittedAt>` +
      '<Comment>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;</Comment></ChangeInfo></GetChangeResponse>',
  );
  expect(errorDocument(new Route53Fault(500, 'InternalFailure', 'x < y'), 'req-1')).toBe(
    '<?xml version="1.0" encoding="UTF-8"?>\n<ErrorResponse xmlns="https://route53.amazonaws.com/doc/2013-04-01/">' +
      '<Error><Type>Receiver</Type><Code>InternalFailure</Code><Message>x &lt; y</Message></Error><RequestId>req-1</RequestId></ErrorResponse>',
  );
  const zone = addZone(state, 'empty.test');
  expect(listHostedZonesByName(state, query({ dnsname: 'zzz.test' })).xml).toContain(
    '<HostedZones></HostedZones><DNSName>zzz.test</DNSName>',
  );
  expect(listResourceRecordSets(state, zone, query({ maxitems: '1' })).xml).toMatch(
    /<ResourceRecordSets><ResourceRecordSet><Name>empty\.test\.<\/Name><Type>NS<\/Type><TTL>172800<\/TTL><ResourceRecords><ResourceRecord><Value>ns-1\.local-route53\.test\.<\/Value><\/ResourceRecord><ResourceRecord><Value>ns-2\.local-route53\.test\.<\/Value><\/ResourceRecord><\/ResourceRecords><\/ResourceRecordSet><\/ResourceRecordSets><IsTruncated>true<\/IsTruncated><NextRecordName>empty\.test\.<\/NextRecordName><NextRecordType>SOA<\/NextRecordType><MaxItems>1<\/MaxItems><\/ListResourceRecordSetsResponse>$/,
  );
});
