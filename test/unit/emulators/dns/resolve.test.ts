/**
 * Answers as the product sees them: Node's dns.promises.Resolver (c-ares, UDP with TCP fallback)
 * pointed at the emulator.
 */
import type { promises as dnsPromises } from 'node:dns';
import { startDnsEmulator, type DnsEmulator } from '#localstack/emulators/dns';
import { decodeMessage, encodeMessage } from '#localstack/emulators/dns/wire';
import { errorCode, opt, query, resolverFor, udpExchange, udpQuery, tcpQuery } from './harness';

let emu: DnsEmulator;
let resolver: dnsPromises.Resolver;
const log: string[] = [];

beforeAll(async () => {
  emu = await startDnsEmulator({ log: (m) => log.push(m) });
  resolver = resolverFor(emu);
});

afterAll(async () => {
  await emu.stop();
});

const DKIM = `v=DKIM1; k=rsa; p=${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.padEnd(392, 'Qx7')}`;

describe('TXT', () => {
  test('one record', async () => {
    emu.setRecords({ name: '_service.one.test', type: 'TXT', values: ['service-verification=abc123'] });
    expect(await resolver.resolveTxt('_service.one.test')).toEqual([['service-verification=abc123']]);
  });

  test('several records at one name are several answers (two SPF records are detectable)', async () => {
    emu.setRecords({ name: 'two-spf.test', type: 'TXT', values: ['v=spf1 include:a.example -all', 'v=spf1 include:b.example -all'] });
    const records = await resolver.resolveTxt('two-spf.test');
    expect(records.map((chunks) => chunks.join(''))).toEqual(['v=spf1 include:a.example -all', 'v=spf1 include:b.example -all']);
    expect(records.filter((r) => r.join('').startsWith('v=spf1'))).toHaveLength(2);
  });

  test('a value over 255 bytes (2048-bit DKIM key) is one record whose chunks join to the value', async () => {
    expect(DKIM.length).toBeGreaterThan(400);
    emu.setRecords({ name: 's1._domainkey.dkim.test', type: 'TXT', values: [DKIM] });
    const records = await resolver.resolveTxt('s1._domainkey.dkim.test');
    expect(records).toHaveLength(1);
    expect(records[0]?.length).toBe(2);
    expect(records[0]?.[0]).toHaveLength(255);
    expect(records[0]?.join('')).toBe(DKIM);
  });

  test('an answer over 512 bytes comes back in full (truncated over UDP, retried over TCP)', async () => {
    const values = Array.from({ length: 40 }, (_, i) => `record-${String(i).padStart(2, '0')}-${'z'.repeat(60)}`);
    emu.setRecords({ name: 'big.test', type: 'TXT', values });
    log.length = 0;
    const records = await resolver.resolveTxt('big.test');
    expect(records.map((r) => r.join(''))).toEqual(values);
    expect(log.some((l) => l.startsWith('dns: udp TXT big.test'))).toBe(true);
    expect(log.some((l) => l.startsWith('dns: tcp TXT big.test'))).toBe(true);
  });

  test('non-ASCII text goes out as UTF-8 (Node reads TXT bytes as latin1)', async () => {
    emu.setRecords({ name: 'utf8.test', type: 'TXT', values: ['héllo wörld ✓'] });
    const [[chunk = '']] = (await resolver.resolveTxt('utf8.test')) as [[string]];
    expect(chunk).not.toBe('héllo wörld ✓');
    expect(Buffer.from(chunk, 'latin1').toString('utf8')).toBe('héllo wörld ✓');
  });
});

describe('other types', () => {
  test('CNAME', async () => {
    emu.setRecords({ name: 'rp.cname.test', type: 'CNAME', values: ['bounces.provider.example'] });
    expect(await resolver.resolveCname('rp.cname.test')).toEqual(['bounces.provider.example']);
  });

  test('MX with priorities', async () => {
    emu.setRecords({ name: 'inbound.mx.test', type: 'MX', values: ['20 mx2.provider.example', '10 mx1.provider.example'] });
    const mx = await resolver.resolveMx('inbound.mx.test');
    expect(mx.sort((a, b) => a.priority - b.priority)).toEqual([
      { priority: 10, exchange: 'mx1.provider.example' },
      { priority: 20, exchange: 'mx2.provider.example' },
    ]);
  });

  test('A and AAAA with their TTL', async () => {
    emu.setRecords({ name: 'host.addr.test', type: 'A', values: ['192.0.2.1', '192.0.2.2'], ttl: 120 });
    emu.setRecords({ name: 'host.addr.test', type: 'AAAA', values: ['2001:db8::1'] });
    expect((await resolver.resolve4('host.addr.test')).sort()).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(await resolver.resolve4('host.addr.test', { ttl: true })).toContainEqual({ address: '192.0.2.1', ttl: 120 });
    expect(await resolver.resolve6('host.addr.test')).toEqual(['2001:db8::1']);
  });

  test('SOA and NS are synthesized at the zone apex', async () => {
    emu.setRecords({ name: '_dmarc.soa.test', type: 'TXT', values: ['v=DMARC1; p=none'] });
    expect(await resolver.resolveSoa('soa.test')).toMatchObject({ nsname: 'localhost', hostmaster: 'hostmaster.soa.test', minttl: 0 });
    expect(await resolver.resolveNs('soa.test')).toEqual(['localhost']);
  });

  test('ANY returns every record set at the name', async () => {
    emu.setRecords({ name: 'any.test', type: 'TXT', values: ['v=spf1 -all'] });
    emu.setRecords({ name: 'any.test', type: 'MX', values: ['10 mx.any.test'] });
    const types = (await resolver.resolveAny('any.test')).map((r) => r.type).sort();
    expect(types).toEqual(['MX', 'NS', 'SOA', 'TXT']);
  });
});

describe('negative answers', () => {
  beforeAll(() => {
    emu.setRecords({ name: '_service.neg.test', type: 'TXT', values: ['token'] });
    emu.setRecords({ name: 's1._domainkey.neg.test', type: 'TXT', values: ['v=DKIM1; p=abc'] });
  });

  test('a name with nothing at or below it is NXDOMAIN: Node reports ENOTFOUND', async () => {
    expect(await errorCode(resolver.resolveTxt('_dmarc.neg.test'))).toBe('ENOTFOUND');
    expect(await errorCode(resolver.resolveCname('rp.neg.test'))).toBe('ENOTFOUND');
  });

  test('a name with records of another type is NODATA: Node reports ENODATA', async () => {
    expect(await errorCode(resolver.resolveMx('_service.neg.test'))).toBe('ENODATA');
    expect(await errorCode(resolver.resolveCname('_service.neg.test'))).toBe('ENODATA');
  });

  test('the zone apex and empty non-terminals exist: NODATA, not NXDOMAIN', async () => {
    expect(await errorCode(resolver.resolveTxt('neg.test'))).toBe('ENODATA');
    expect(await errorCode(resolver.resolveTxt('_domainkey.neg.test'))).toBe('ENODATA');
  });

  test('negative answers are authoritative and carry the zone SOA', async () => {
    const nx = (await udpQuery(emu.port, query('_dmarc.neg.test', 'TXT'))).msg;
    expect(nx).toMatchObject({ qr: true, aa: true, rcode: 3, answers: [] });
    expect(nx.authorities.map((rr) => [rr.name, rr.type])).toEqual([['neg.test', 'SOA']]);
    const nodata = (await udpQuery(emu.port, query('_service.neg.test', 'MX'))).msg;
    expect(nodata).toMatchObject({ aa: true, rcode: 0, answers: [] });
    expect(nodata.authorities.map((rr) => rr.type)).toEqual(['SOA']);
  });

  test('a record published after a miss is seen at once (Node does not cache; negative TTL is 0)', async () => {
    expect(await errorCode(resolver.resolveTxt('late.neg.test'))).toBe('ENOTFOUND');
    emu.setRecords({ name: 'late.neg.test', type: 'TXT', values: ['now here'] });
    expect(await resolver.resolveTxt('late.neg.test')).toEqual([['now here']]);
    emu.setRecords({ name: 'late.neg.test', type: 'TXT', values: ['changed'], ttl: 3600 });
    expect(await resolver.resolveTxt('late.neg.test')).toEqual([['changed']]);
  });

  test('names outside every local zone get a non-authoritative NXDOMAIN by default', async () => {
    expect(await errorCode(resolver.resolveTxt('_service.elsewhere.example'))).toBe('ENOTFOUND');
    expect((await udpQuery(emu.port, query('elsewhere.example', 'TXT'))).msg).toMatchObject({ aa: false, rcode: 3, authorities: [] });
  });
});

describe('names', () => {
  test('are case-insensitive, with or without the trailing dot, on both sides', async () => {
    emu.setRecords({ name: '_DMARC.Case.TEST.', type: 'TXT', values: ['v=DMARC1; p=reject'] });
    expect(emu.listRecords('case.test')[0]?.name).toBe('_dmarc.case.test');
    expect(await resolver.resolveTxt('_dmarc.case.test')).toEqual([['v=DMARC1; p=reject']]);
    expect(await resolver.resolveTxt('_DMARC.CASE.TEST.')).toEqual([['v=DMARC1; p=reject']]);
  });

  test('the question comes back exactly as asked (0x20 case randomization)', async () => {
    const { msg } = await udpQuery(emu.port, query('_DmArC.cAsE.tEsT', 'TXT'));
    expect(msg.questions[0]?.name).toBe('_DmArC.cAsE.tEsT');
    expect(msg.answers[0]?.name).toBe('_DmArC.cAsE.tEsT');
  });
});

describe('CNAME at a name', () => {
  test('answers a TXT question with the CNAME and the local target TXT', async () => {
    emu.setRecords({ name: 's1._domainkey.alias.test', type: 'CNAME', values: ['s1.dkim.provider.test'] });
    emu.setRecords({ name: 's1.dkim.provider.test', type: 'TXT', values: [DKIM] });
    expect((await resolver.resolveTxt('s1._domainkey.alias.test')).map((r) => r.join(''))).toEqual([DKIM]);
    const { msg } = await udpQuery(emu.port, query('s1._domainkey.alias.test', 'TXT', { additionals: [opt(4096)] }));
    expect(msg.answers.map((rr) => [rr.name, rr.type])).toEqual([
      ['s1._domainkey.alias.test', 'CNAME'],
      ['s1.dkim.provider.test', 'TXT'],
    ]);
  });

  test('follows chains, and gives the target rcode when the target is missing', async () => {
    emu.setRecords({ name: 'a.chain.test', type: 'CNAME', values: ['b.chain.test'] });
    emu.setRecords({ name: 'b.chain.test', type: 'CNAME', values: ['c.chain.test'] });
    emu.setRecords({ name: 'c.chain.test', type: 'A', values: ['192.0.2.7'] });
    expect(await resolver.resolve4('a.chain.test')).toEqual(['192.0.2.7']);
    const missing = (await udpQuery(emu.port, query('a.chain.test', 'TXT'))).msg;
    expect(missing.rcode).toBe(0); // c.chain.test exists (A), so TXT there is NODATA
    expect(missing.answers.map((rr) => rr.type)).toEqual(['CNAME', 'CNAME']);
    emu.setRecords({ name: 'dangling.chain.test', type: 'CNAME', values: ['gone.chain.test'] });
    expect((await udpQuery(emu.port, query('dangling.chain.test', 'A'))).msg).toMatchObject({ rcode: 3 });
  });

  test('a loop ends the chain instead of hanging', async () => {
    emu.setRecords({ name: 'x.loop.test', type: 'CNAME', values: ['y.loop.test'] });
    emu.setRecords({ name: 'y.loop.test', type: 'CNAME', values: ['x.loop.test'] });
    const { msg } = await udpQuery(emu.port, query('x.loop.test', 'TXT'));
    expect(msg.answers.map((rr) => rr.name)).toEqual(['x.loop.test', 'y.loop.test']);
  });

  test('an external target without upstream: the CNAME alone (Node resolveTxt gives [])', async () => {
    emu.setRecords({ name: 'rp.ext.test', type: 'CNAME', values: ['bounce.far-away.example'] });
    expect(await resolver.resolveTxt('rp.ext.test')).toEqual([]);
    expect(await resolver.resolveCname('rp.ext.test')).toEqual(['bounce.far-away.example']);
  });
});

describe('transport details', () => {
  test('without EDNS a UDP answer over 512 bytes is truncated with TC set; TCP gets it all', async () => {
    const values = Array.from({ length: 12 }, (_, i) => `v${i}-${'q'.repeat(50)}`);
    emu.setRecords({ name: 'tc.test', type: 'TXT', values });
    const udp = await udpQuery(emu.port, query('tc.test', 'TXT'));
    expect(udp.raw.length).toBeLessThanOrEqual(512);
    expect(udp.msg).toMatchObject({ tc: true, answers: [] });
    const tcp = await tcpQuery(emu.port, query('tc.test', 'TXT'));
    expect(tcp.tc).toBe(false);
    expect(tcp.answers).toHaveLength(12);
  });

  test('an EDNS OPT record raises the UDP limit and gets an OPT back', async () => {
    const values = Array.from({ length: 12 }, (_, i) => `v${i}-${'q'.repeat(50)}`);
    emu.setRecords({ name: 'edns.test', type: 'TXT', values });
    const { raw, msg } = await udpQuery(emu.port, query('edns.test', 'TXT', { additionals: [opt(1232)] }));
    expect(raw.length).toBeGreaterThan(512);
    expect(msg.tc).toBe(false);
    expect(msg.answers).toHaveLength(12);
    expect(msg.additionals).toEqual([
      { name: '.', type: 'OPT', udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] },
    ]);
    // A client size below 512 counts as 512.
    expect((await udpQuery(emu.port, query('edns.test', 'TXT', { additionals: [opt(100)] }))).msg.tc).toBe(true);
  });

  test('unsupported EDNS version -> BADVERS; other opcodes and zone transfers -> NOTIMP; two questions -> FORMERR', async () => {
    const badvers = (await udpQuery(emu.port, query('edns.test', 'TXT', { additionals: [opt(1232, 1)] }))).msg;
    expect(badvers.rcode).toBe(0); // low bits of 16
    expect(badvers.additionals[0]).toMatchObject({ type: 'OPT', extendedRcode: 1 }); // high bits of 16
    expect((await udpQuery(emu.port, query('edns.test', 'TXT', { opcode: 2 }))).msg.rcode).toBe(4);
    expect((await udpQuery(emu.port, query('edns.test', 'AXFR'))).msg.rcode).toBe(4);
    const two = query('edns.test', 'TXT');
    two.questions.push({ name: 'tc.test', type: 'TXT', class: 'IN' });
    expect((await udpQuery(emu.port, two)).msg).toMatchObject({ rcode: 1, questions: [] });
    expect(
      (await udpQuery(emu.port, query('edns.test', 'TXT', { questions: [{ name: 'edns.test', type: 'TXT', class: 'CH' }] }))).msg.rcode,
    ).toBe(5);
  });

  test('MAILB and MAILA (types dns-packet has no names for) -> NOTIMP; an unknown class -> REFUSED with the question as sent', async () => {
    expect((await udpQuery(emu.port, query('edns.test', 'UNKNOWN_253'))).msg.rcode).toBe(4);
    expect((await udpQuery(emu.port, query('edns.test', 'UNKNOWN_254'))).msg.rcode).toBe(4);
    // id 7, one question: "a" TXT, class 7
    const raw = await udpExchange(emu.port, Buffer.from('000701000001000000000000016100' + '00100007', 'hex'));
    expect(raw && decodeMessage(raw)).toMatchObject({ id: 7, rcode: 5, questions: [{ name: 'a', type: 'TXT', class: 'UNKNOWN_7' }] });
    expect(raw?.subarray(12, 19)).toEqual(Buffer.from('01610000100007', 'hex'));
  });

  test('a question name dns-packet cannot give back as sent (a dot inside a label) -> FORMERR without the question', async () => {
    // id 8, one question: the labels "a.b" and "test", TXT IN
    const raw = await udpExchange(emu.port, Buffer.from('000801000001000000000000' + '03612e62' + '0474657374' + '00' + '00100001', 'hex'));
    expect(raw && decodeMessage(raw)).toMatchObject({ id: 8, qr: true, rcode: 1, questions: [] });
  });

  test('other types at a local name are NODATA', async () => {
    const srv = (await udpQuery(emu.port, query('edns.test', 'SRV'))).msg;
    expect(srv).toMatchObject({ rcode: 0, aa: true, answers: [] });
  });

  test('responses sent to the server are dropped', async () => {
    const response = encodeMessage({ ...query('edns.test', 'TXT'), qr: true });
    expect(await udpExchange(emu.port, response, 300)).toBeUndefined();
    expect(decodeMessage((await udpQuery(emu.port, query('edns.test', 'TXT'))).raw).rcode).toBe(0);
  });
});
