/** The control API: setRecords / deleteRecords / listRecords and validation. */
import { DnsRecordError, startDnsEmulator, type DnsEmulator, type DnsRecordSet } from '#localstack/emulators/dns';
import { errorCode, resolverFor } from './harness';

let emu: DnsEmulator;

beforeAll(async () => {
  emu = await startDnsEmulator();
});

afterAll(async () => {
  await emu.stop();
});

function rejection(set: unknown): DnsRecordError {
  try {
    emu.setRecords(set as DnsRecordSet);
  } catch (err) {
    expect(err).toBeInstanceOf(DnsRecordError);
    return err as DnsRecordError;
  }
  throw new Error(`expected ${JSON.stringify(set)} to be rejected`);
}

test('the address is 127.0.0.1:port, the same port for UDP and TCP', () => {
  expect(emu.address).toBe(`127.0.0.1:${emu.port}`);
  expect(emu.port).toBeGreaterThan(0);
});

test('setRecords returns the canonical set and replaces the set of that name and type', async () => {
  const resolver = resolverFor(emu);
  expect(emu.setRecords({ name: 'Replace.Test.', type: 'TXT', values: ['first', 'second'] })).toEqual({
    name: 'replace.test',
    type: 'TXT',
    values: ['first', 'second'],
    ttl: 60,
  });
  emu.setRecords({ name: 'replace.test', type: 'MX', values: ['5  MX.Replace.Test.'] });
  expect(emu.setRecords({ name: 'replace.test', type: 'TXT', values: ['third'], ttl: 10 })).toMatchObject({ values: ['third'], ttl: 10 });
  expect(await resolver.resolveTxt('replace.test')).toEqual([['third']]);
  expect(emu.listRecords('replace.test')).toEqual([
    { name: 'replace.test', type: 'MX', values: ['5 mx.replace.test'], ttl: 60 },
    { name: 'replace.test', type: 'TXT', values: ['third'], ttl: 10 },
  ]);
});

test('deleteRecords removes one type or every type, and returns how many sets it removed', async () => {
  const resolver = resolverFor(emu);
  emu.setRecords({ name: 'del.test', type: 'TXT', values: ['t'] });
  emu.setRecords({ name: 'del.test', type: 'A', values: ['192.0.2.3'] });
  emu.setRecords({ name: 'sub.del.test', type: 'TXT', values: ['s'] });
  expect(emu.deleteRecords('DEL.test.', 'TXT')).toBe(1);
  expect(emu.deleteRecords('del.test', 'TXT')).toBe(0);
  expect(await errorCode(resolver.resolveTxt('del.test'))).toBe('ENODATA');
  emu.setRecords({ name: 'del.test', type: 'TXT', values: ['t'] });
  expect(emu.deleteRecords('del.test')).toBe(2);
  // del.test still exists as the zone apex; below it, sub.del.test remains.
  expect(await errorCode(resolver.resolve4('del.test'))).toBe('ENODATA');
  expect(await resolver.resolveTxt('sub.del.test')).toEqual([['s']]);
  expect(emu.deleteRecords('sub.del.test')).toBe(1);
  expect(emu.deleteRecords('nothing.del.test')).toBe(0);
  // With no record left, the zone is gone.
  expect(emu.listRecords('del.test')).toEqual([]);
});

test('listRecords: everything, or a name and the names below it, sorted', () => {
  emu.setRecords({ name: 'list.test', type: 'TXT', values: ['v=spf1 -all'] });
  emu.setRecords({ name: '_dmarc.list.test', type: 'TXT', values: ['v=DMARC1; p=none'] });
  emu.setRecords({ name: 'rp.list.test', type: 'CNAME', values: ['x.example'] });
  emu.setRecords({ name: 'notlist.test', type: 'TXT', values: ['no'] });
  expect(emu.listRecords('list.test').map((s) => `${s.name} ${s.type}`)).toEqual([
    '_dmarc.list.test TXT',
    'list.test TXT',
    'rp.list.test CNAME',
  ]);
  expect(emu.listRecords('rp.list.test')).toHaveLength(1);
  expect(emu.listRecords().length).toBeGreaterThanOrEqual(4);
  const listed = emu.listRecords('list.test');
  listed[0]?.values.push('mutated');
  expect(emu.listRecords('_dmarc.list.test')[0]?.values).toEqual(['v=DMARC1; p=none']);
});

describe('validation', () => {
  test('a CNAME cannot share its name with other records, either way round', () => {
    emu.setRecords({ name: 'excl.test', type: 'TXT', values: ['x'] });
    expect(rejection({ name: 'excl.test', type: 'CNAME', values: ['target.example'] }).message).toMatch(
      /cannot add a CNAME at excl\.test: it already has TXT records/,
    );
    emu.setRecords({ name: 'rp.excl.test', type: 'CNAME', values: ['target.example'] });
    expect(rejection({ name: 'rp.excl.test', type: 'TXT', values: ['x'] }).message).toMatch(/rp\.excl\.test: it has a CNAME/);
    // Replacing the CNAME itself is fine.
    expect(emu.setRecords({ name: 'rp.excl.test', type: 'CNAME', values: ['other.example'] }).values).toEqual(['other.example']);
  });

  test.each([
    ['10', /MX value must be "<priority 0-65535> <exchange>"/],
    ['mx.example.com', /MX value must be/],
    ['70000 mx.example.com', /MX value must be/],
    ['-1 mx.example.com', /MX value must be/],
    ['10 mx..example.com', /empty label/],
    ['10 mx.example.com extra', /MX value must be/],
  ])('bad MX %j', (value, message) => {
    expect(rejection({ name: 'mx.valid.test', type: 'MX', values: [value] }).message).toMatch(message);
  });

  test('a null MX ("0 .") is accepted', () => {
    expect(emu.setRecords({ name: 'nullmx.valid.test', type: 'MX', values: ['0 .'] }).values).toEqual(['0 .']);
  });

  test.each([
    ['', /must not be empty/],
    ['.', /must not be empty/],
    ['a..b.test', /empty label/],
    [`${'a'.repeat(64)}.test`, /label of 64 characters/],
    ['b'.repeat(63).concat('.', 'b'.repeat(63), '.', 'b'.repeat(63), '.', 'b'.repeat(63), '.test'), /at most 253/],
    ['bad name.test', /invalid label 'bad name'/],
    ['-lead.test', /invalid label '-lead'/],
    ['*.wild.test', /invalid label '\*'/],
    [42, /name must be a string/],
  ])('bad name %#', (name, message) => {
    expect(rejection({ name, type: 'TXT', values: ['x'] }).message).toMatch(message);
  });

  test('a 63-character label and a 253-character name are fine; IDNs become xn--', () => {
    const long = `${Array.from({ length: 3 }, () => 'c'.repeat(63)).join('.')}.${'d'.repeat(61)}`;
    expect(long).toHaveLength(253);
    expect(emu.setRecords({ name: long, type: 'TXT', values: ['x'] }).name).toBe(long);
    expect(emu.setRecords({ name: 'Bücher.test', type: 'A', values: ['192.0.2.9'] }).name).toBe('xn--bcher-kva.test');
  });

  test.each([
    ['A 300.1.1.1', { type: 'A', values: ['300.1.1.1'] }, /'300\.1\.1\.1' is not an IPv4 address/],
    ['A given an IPv6 address', { type: 'A', values: ['2001:db8::1'] }, /not an IPv4 address/],
    ['AAAA given an IPv4 address', { type: 'AAAA', values: ['192.0.2.1'] }, /not an IPv6 address/],
    ['two CNAME values', { type: 'CNAME', values: ['a.example', 'b.example'] }, /exactly one value; got 2/],
    ['CNAME to itself', { type: 'CNAME', values: ['self.valid.test'] }, /must not point to itself/],
    ['no values', { type: 'TXT', values: [] }, /non-empty array/],
    ['values not an array', { type: 'TXT', values: 'text' }, /non-empty array/],
    ['a value not a string', { type: 'TXT', values: [1] }, /values\[0\] must be a string/],
    ['duplicate values', { type: 'TXT', values: ['a', 'a'] }, /duplicate/],
    ['TXT over 4096 bytes', { type: 'TXT', values: ['x'.repeat(4097)] }, /4097 bytes is longer than 4096/],
    ['101 values', { type: 'TXT', values: Array.from({ length: 101 }, (_, i) => `${i}`) }, /at most 100 values/],
    ['set over 32768 bytes', { type: 'TXT', values: Array.from({ length: 9 }, (_, i) => `${i}${'x'.repeat(4000)}`) }, /at most 32768/],
    ['unsupported type', { type: 'SRV', values: ['x'] }, /type must be one of A, AAAA, CNAME, MX, TXT/],
    ['negative ttl', { type: 'TXT', values: ['x'], ttl: -1 }, /ttl must be an integer/],
    ['fractional ttl', { type: 'TXT', values: ['x'], ttl: 1.5 }, /ttl must be an integer/],
  ])('bad record set: %s', (_, partial, message) => {
    expect(rejection({ name: 'self.valid.test', ...partial }).message).toMatch(message);
  });

  test('rejected sets change nothing; DnsRecordError carries status 400', () => {
    emu.setRecords({ name: 'keep.valid.test', type: 'TXT', values: ['kept'] });
    const err = rejection({ name: 'keep.valid.test', type: 'TXT', values: ['ok', 'ok'] });
    expect(err.status).toBe(400);
    expect(emu.listRecords('keep.valid.test')[0]?.values).toEqual(['kept']);
  });

  test('the type is case-insensitive; deleteRecords validates its arguments', () => {
    expect(emu.setRecords({ name: 'lower.valid.test', type: 'txt' as 'TXT', values: ['x'] }).type).toBe('TXT');
    expect(() => emu.deleteRecords('bad name')).toThrow(DnsRecordError);
    expect(() => emu.deleteRecords('lower.valid.test', 'SRV' as 'TXT')).toThrow(DnsRecordError);
  });
});
