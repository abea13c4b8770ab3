/**
 * The wire format on its own: dns-packet as the emulator uses it (wire.ts), the checks it adds
 * (record-framing.ts, the encode guard, question names and classes), truncation, TXT splitting,
 * RDATA as validated, names and zones.
 */
import type { DnsMessage } from '#localstack/emulators/dns/dns-message';
import { DnsFormatError } from '#localstack/emulators/dns/errors';
import { canonicalName, zoneOf } from '#localstack/emulators/dns/names';
import { rdataBytes } from '#localstack/emulators/dns/packet-codecs';
import { encodeResponse } from '#localstack/emulators/dns/truncate';
import { txtStrings } from '#localstack/emulators/dns/txt-strings';
import { validateRecordSet } from '#localstack/emulators/dns/validate';
import { decodeMessage, encodeMessage, questionNameIsExact } from '#localstack/emulators/dns/wire';
import { opt, query } from './harness';

function hex(s: string): Buffer {
  return Buffer.from(s.replace(/\s+/g, ''), 'hex');
}

describe('decoder', () => {
  test('decodes a query as dig would send it', () => {
    // id 0xabcd, RD, one question: example.com TXT IN
    const packet = hex('abcd 0100 0001 0000 0000 0000 07 6578616d706c65 03 636f6d 00 0010 0001');
    const msg = decodeMessage(packet);
    expect(msg).toMatchObject({ id: 0xabcd, qr: false, opcode: 0, rd: true, rcode: 0 });
    expect(msg.questions).toEqual([{ name: 'example.com', type: 'TXT', class: 'IN' }]);
  });

  test('follows compression pointers in owner names and inside RDATA', () => {
    const packet = hex(
      // header: response, 1 question, 2 answers
      '0001 8180 0001 0002 0000 0000' +
        // question at offset 12: rp.example.com CNAME IN
        '02 7270 07 6578616d706c65 03 636f6d 00 0005 0001' +
        // answer 1: owner = pointer to 12, CNAME, ttl 60, rdata "b" + pointer to example.com (offset 15)
        'c00c 0005 0001 0000003c 0004 01 62 c00f' +
        // answer 2: owner = pointer to 15 (example.com), MX 10 "mx" + pointer to 15
        'c00f 000f 0001 0000003c 0007 000a 02 6d78 c00f',
    );
    const msg = decodeMessage(packet);
    expect(msg.answers.map((a) => [a.name, a.type])).toEqual([
      ['rp.example.com', 'CNAME'],
      ['example.com', 'MX'],
    ]);
    expect(msg.answers.map((a) => ('data' in a ? a.data : undefined))).toEqual([
      'b.example.com',
      { preference: 10, exchange: 'mx.example.com' },
    ]);
    // Expanded RDATA stands alone: re-encoding (uncompressed) and decoding gives the same records.
    const again = encodeMessage(msg);
    expect(again.length).toBeGreaterThan(packet.length);
    expect(decodeMessage(again).answers).toEqual(msg.answers);
  });

  test.each([
    ['empty', ''],
    ['shorter than a header', '0001 0100 0001'],
    ['question runs past the end', '0001 0100 0001 0000 0000 0000 07 6578616d'],
    ['question without its type and class', '0001 0100 0001 0000 0000 0000 00 0001'],
    ['label runs past the end', '0001 0100 0001 0000 0000 0000 0f c00c 0001 0001'],
    ['pointer to itself', '0001 0100 0001 0000 0000 0000 c00c 0001 0001'],
    ['forward pointer', '0001 0100 0001 0000 0000 0000 c020 0001 0001'],
    ['reserved label type', '0001 0100 0001 0000 0000 0000 41 00 0001 0001'],
    ['trailing garbage', '0001 0100 0001 0000 0000 0000 00 0001 0001 ff'],
    ['counts larger than the content', '0001 0100 0001 0005 0000 0000 00 0001 0001'],
    ['RDATA past the end', '0001 8100 0000 0001 0000 0000 00 0001 0001 00000000 0010 01020304'],
    ['A RDATA shorter than its RDLENGTH says', '0001 8100 0000 0001 0000 0000 00 0001 0001 00000000 0002 0102 00 0001 0001 00000000 0000'],
    ['MX RDATA with bytes after the name', '0001 8100 0000 0001 0000 0000 00 000f 0001 00000000 0005 000a 00 ffff'],
    ['MX name running past its RDLENGTH', '0001 8100 0000 0001 0000 0000 00 000f 0001 00000000 0003 000a 01 61 00'],
    ['record cut inside its fixed fields', '0001 8100 0000 0001 0000 0000 00 0010 0001 0000'],
    ['OPT option longer than the OPT RDATA', '0001 0100 0000 0000 0000 0001 00 0029 1000 00000000 0004 000a 0008'],
  ])('rejects a malformed message: %s', (_, packetHex) => {
    expect(() => decodeMessage(hex(packetHex))).toThrow(DnsFormatError);
  });

  test('a pointer loop ends with DnsFormatError', () => {
    // offset 12: label "a", then a pointer back to 12 (backwards, but it loops through itself)
    expect(() => decodeMessage(hex('0001 0100 0001 0000 0000 0000 01 61 c00c 0001 0001'))).toThrow(DnsFormatError);
    // An answer's owner pointing back at the question's pointer that points at itself.
    expect(() => decodeMessage(hex('0001 8100 0001 0001 0000 0000 01 61 c00c 0001 0001 c00e 0001 0001 00000000 0004 01020304'))).toThrow(
      DnsFormatError,
    );
  });

  test('names longer than 255 bytes are rejected', () => {
    const labels = Array.from({ length: 5 }, () => `3f${'61'.repeat(63)}`).join('');
    expect(() => decodeMessage(hex(`0001 0100 0001 0000 0000 0000 ${labels} 00 0001 0001`))).toThrow(/name too long/);
  });

  test('types and classes dns-packet has no name for read as UNKNOWN_<n>', () => {
    // MAILB (253), class 7
    const msg = decodeMessage(hex('0001 0100 0001 0000 0000 0000 01 61 00 00fd 0007'));
    expect(msg.questions).toEqual([{ name: 'a', type: 'UNKNOWN_253', class: 'UNKNOWN_7' }]);
  });

  test('fuzz: random bytes never throw anything but DnsFormatError', () => {
    let seed = 42;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const base = encodeMessage(query('_dmarc.example.com', 'TXT', { additionals: [opt(1232)] }));
    for (let i = 0; i < 3000; i++) {
      const packet =
        i % 2 === 0 ? Buffer.from(Array.from({ length: Math.floor(rand() * 80) }, () => Math.floor(rand() * 256))) : Buffer.from(base);
      if (i % 2 === 1) for (let k = 0; k < 3; k++) packet[Math.floor(rand() * packet.length)] = Math.floor(rand() * 256);
      try {
        decodeMessage(packet);
      } catch (err) {
        expect(err).toBeInstanceOf(DnsFormatError);
      }
    }
  });
});

describe('encoder', () => {
  test('header flags and counts round-trip', () => {
    const msg: DnsMessage = {
      ...query('Example.COM', 'MX'),
      qr: true,
      aa: true,
      tc: false,
      ra: true,
      rcode: 3,
      opcode: 0,
      answers: [
        { name: 'example.com', type: 'MX', class: 'IN', flush: false, ttl: 300, data: { preference: 10, exchange: 'mx.example.com' } },
      ],
      additionals: [opt(1232)],
    };
    const bytes = encodeMessage(msg);
    expect(bytes.readUInt16BE(2)).toBe(0x8000 | 0x0400 | 0x0100 | 0x0080 | 3);
    expect(bytes.readUInt16BE(10)).toBe(1);
    expect(decodeMessage(bytes)).toEqual(msg);
    // Opcode and the Z/AD/CD bits survive too.
    expect(decodeMessage(encodeMessage(query('a.example', 'A', { opcode: 2, z: 5 })))).toMatchObject({ opcode: 2, z: 5 });
  });

  test('a response over the size limit becomes header + question + OPT with TC set', () => {
    const answers = Array.from({ length: 20 }, (_, i) => ({
      name: 'big.example.com',
      type: 'TXT' as const,
      class: 'IN' as const,
      ttl: 60,
      data: txtStrings(`v${i} ${'x'.repeat(40)}`),
    }));
    const msg: DnsMessage = { ...query('big.example.com', 'TXT'), qr: true, answers, additionals: [opt(512)] };
    expect(encodeResponse(msg, 65535).length).toBeGreaterThan(512);
    const truncated = decodeMessage(encodeResponse(msg, 512));
    expect(truncated.tc).toBe(true);
    expect(truncated.answers).toEqual([]);
    expect(truncated.questions).toEqual(msg.questions);
    expect(truncated.additionals.map((rr) => rr.type)).toEqual(['OPT']);
    expect(decodeMessage(encodeResponse(msg, 65535)).tc).toBe(false);
  });

  test('names: the root, a trailing dot, case kept', () => {
    const at = (name: string): Buffer => encodeMessage(query(name, 'A')).subarray(12, -4);
    expect(at('')).toEqual(hex('00'));
    expect(at('.')).toEqual(hex('00'));
    expect(at('a.b.')).toEqual(hex('01 61 01 62 00'));
    expect(at('A.b')).toEqual(hex('01 41 01 62 00'));
  });

  test('a name dns-packet would write wrong throws RangeError instead', () => {
    expect(() => encodeMessage(query(`${'a'.repeat(64)}.com`, 'A'))).toThrow(RangeError);
    const long = Array.from({ length: 5 }, () => 'b'.repeat(63)).join('.');
    expect(() => encodeMessage(query(long, 'A'))).toThrow(RangeError);
  });

  test('a question class dns-packet has no name for is written as it was read', () => {
    const packet = hex('0001 0100 0001 0000 0000 0000 01 61 00 00fd 0007');
    expect(encodeMessage(decodeMessage(packet))).toEqual(packet);
  });
});

describe('question names', () => {
  test('a name whose text gives back the bytes sent is exact, whatever its case', () => {
    const packet = encodeMessage(query('_DmArC.Example.COM', 'TXT'));
    const [question] = decodeMessage(packet).questions;
    expect(question?.name).toBe('_DmArC.Example.COM');
    expect(questionNameIsExact(packet, question!)).toBe(true);
  });

  test.each([
    ['a dot inside a label', '0001 0100 0001 0000 0000 0000 03 612e62 00 0001 0001'],
    ['bytes that are not UTF-8', '0001 0100 0001 0000 0000 0000 02 61ff 00 0001 0001'],
    ['a pointer into the header', '0001 0100 0001 0000 0000 0000 c002 0001 0001'],
  ])('is not exact with %s', (_, packetHex) => {
    const packet = hex(packetHex);
    const [question] = decodeMessage(packet).questions;
    expect(questionNameIsExact(packet, question!)).toBe(false);
  });
});

describe('RDATA as validated', () => {
  test('TXT up to 255 bytes is one string; longer text is split into 255-byte strings', () => {
    expect(txtStrings('')).toEqual([Buffer.alloc(0)]);
    expect(rdataBytes('TXT', txtStrings(''))).toEqual(hex('00'));
    expect(txtStrings('hello').map(String)).toEqual(['hello']);
    const long = `v=DKIM1; k=rsa; p=${'M'.repeat(600)}`;
    const strings = txtStrings(long).map(String);
    expect(strings.map((s) => s.length)).toEqual([255, 255, long.length - 510]);
    expect(strings.join('')).toBe(long);
  });

  test('TXT splitting never cuts a multi-byte character', () => {
    const text = `${'a'.repeat(254)}é${'€'.repeat(100)}`;
    const strings = txtStrings(text).map(String);
    expect(strings.join('')).toBe(text);
    for (const s of strings) expect(Buffer.byteLength(s)).toBeLessThanOrEqual(255);
    expect(strings[0]).toBe('a'.repeat(254));
  });

  test('addresses', () => {
    const rdata = (type: 'A' | 'AAAA', value: string): Buffer =>
      rdataBytes(type, validateRecordSet({ name: 'h.test', type, values: [value] }).data[0]);
    expect(rdata('A', '192.0.2.10')).toEqual(hex('c000020a'));
    expect(rdata('AAAA', '2001:db8::1')).toEqual(hex('20010db8000000000000000000000001'));
    expect(rdata('AAAA', '::')).toEqual(Buffer.alloc(16));
    expect(rdata('AAAA', '::ffff:192.0.2.1')).toEqual(hex('00000000000000000000ffffc0000201'));
    expect(rdata('AAAA', 'fe80::1:2')).toEqual(hex('fe800000000000000000000000010002'));
    expect(rdata('AAAA', '1:2:3:4:5:6:7:8')).toEqual(hex('00010002000300040005000600070008'));
    expect(() => rdata('A', '256.1.1.1')).toThrow(/not an IPv4 address/);
    expect(() => rdata('AAAA', '1::2::3')).toThrow(/not an IPv6 address/);
  });

  test('MX, and the null MX', () => {
    const { data } = validateRecordSet({ name: 'mx.test', type: 'MX', values: ['10 MX.Example.com.', '0 .'] });
    expect(data).toEqual([
      { preference: 10, exchange: 'mx.example.com' },
      { preference: 0, exchange: '.' },
    ]);
    expect(rdataBytes('MX', data[1])).toEqual(hex('0000 00'));
  });
});

describe('names and zones', () => {
  test('canonical form is lower case without the trailing dot', () => {
    expect(canonicalName('_DMARC.Example.COM.')).toBe('_dmarc.example.com');
  });

  test.each([
    ['_service.example.com', 'example.com'],
    ['s1._domainkey.mail.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['_dmarc.shop.example.co.uk', 'example.co.uk'],
    ['rp.example.com.au', 'example.com.au'],
    ['a.b.example.de', 'example.de'],
    ['localhost', 'localhost'],
    ['co.uk', 'co.uk'],
  ])('zoneOf(%s) = %s', (name, zone) => {
    expect(zoneOf(name)).toBe(zone);
  });
});
