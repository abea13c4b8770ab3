/** The wire format on its own: decoder, encoder, RDATA builders, names and zones. */
import { decodeMessage, readName } from '#localstack/emulators/dns/decode';
import { encodeMessage, encodeResponse } from '#localstack/emulators/dns/encode';
import { DnsFormatError } from '#localstack/emulators/dns/errors';
import { nameToWire, textToLabels, type DnsMessage } from '#localstack/emulators/dns/message';
import { canonicalName, zoneOf } from '#localstack/emulators/dns/names';
import { aaaaRdata, aRdata, mxRdata, txtRdata } from '#localstack/emulators/dns/rdata';
import { opt, query, txtStrings } from './harness';

function hex(s: string): Buffer {
  return Buffer.from(s.replace(/\s+/g, ''), 'hex');
}

describe('decoder', () => {
  test('decodes a query as dig would send it', () => {
    // id 0xabcd, RD, one question: example.com TXT IN
    const packet = hex('abcd 0100 0001 0000 0000 0000 07 6578616d706c65 03 636f6d 00 0010 0001');
    const msg = decodeMessage(packet);
    expect(msg).toMatchObject({ id: 0xabcd, qr: false, opcode: 0, rd: true, rcode: 0 });
    expect(msg.questions).toEqual([{ name: 'example.com', type: 16, class: 1 }]);
  });

  test('follows compression pointers in owner names and expands them inside RDATA', () => {
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
    expect(msg.answers.map((a) => a.name)).toEqual(['rp.example.com', 'example.com']);
    expect(msg.answers[0]?.data).toEqual(nameToWire('b.example.com'));
    expect(msg.answers[1]?.data).toEqual(Buffer.concat([hex('000a'), nameToWire('mx.example.com')]));
    // Expanded RDATA stands alone: re-encoding and decoding gives the same records.
    expect(decodeMessage(encodeMessage(msg)).answers).toEqual(msg.answers);
  });

  test.each([
    ['shorter than a header', '0001 0100 0001'],
    ['question runs past the end', '0001 0100 0001 0000 0000 0000 07 6578616d'],
    ['pointer to itself', '0001 0100 0001 0000 0000 0000 c00c 0001 0001'],
    ['forward pointer', '0001 0100 0001 0000 0000 0000 c020 0001 0001'],
    ['reserved label type', '0001 0100 0001 0000 0000 0000 41 00 0001 0001'],
    ['trailing garbage', '0001 0100 0001 0000 0000 0000 00 0001 0001 ff'],
    ['counts larger than the content', '0001 0100 0001 0005 0000 0000 00 0001 0001'],
    ['RDATA past the end', '0001 8100 0000 0001 0000 0000 00 0001 0001 00000000 0010 01020304'],
    ['MX RDATA with bytes after the name', '0001 8100 0000 0001 0000 0000 00 000f 0001 00000000 0005 000a 00 ffff'],
  ])('rejects a malformed message: %s', (_, packetHex) => {
    expect(() => decodeMessage(hex(packetHex))).toThrow(DnsFormatError);
  });

  test('a pointer loop ends with DnsFormatError', () => {
    // offset 12: label "a", then a pointer back to 12 (backwards, but it loops through itself)
    const packet = hex('0001 0100 0001 0000 0000 0000 01 61 c00c 0001 0001');
    expect(() => readName(packet, 12)).toThrow(DnsFormatError);
  });

  test('names longer than 255 bytes are rejected', () => {
    const labels = Array.from({ length: 5 }, () => `3f${'61'.repeat(63)}`).join('');
    expect(() => decodeMessage(hex(`0001 0100 0001 0000 0000 0000 ${labels} 00 0001 0001`))).toThrow(/longer than 255/);
  });

  test('fuzz: random bytes never throw anything but DnsFormatError', () => {
    let seed = 42;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const base = encodeMessage(query('_dmarc.example.com', 16, { additionals: [opt(1232)] }));
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
      ...query('Example.COM', 15),
      qr: true,
      aa: true,
      tc: false,
      ra: true,
      rcode: 3,
      opcode: 0,
      answers: [{ name: 'example.com', type: 15, class: 1, ttl: 300, data: mxRdata(10, 'mx.example.com') }],
      additionals: [opt(1232)],
    };
    const bytes = encodeMessage(msg);
    expect(bytes.readUInt16BE(2)).toBe(0x8000 | 0x0400 | 0x0100 | 0x0080 | 3);
    expect(decodeMessage(bytes)).toEqual(msg);
  });

  test('a response over the size limit becomes header + question + OPT with TC set', () => {
    const answers = Array.from({ length: 20 }, (_, i) => ({
      name: 'big.example.com',
      type: 16,
      class: 1,
      ttl: 60,
      data: txtRdata(`v${i} ${'x'.repeat(40)}`),
    }));
    const msg: DnsMessage = { ...query('big.example.com', 16), qr: true, answers, additionals: [opt(512)] };
    expect(encodeResponse(msg, 65535).length).toBeGreaterThan(512);
    const truncated = decodeMessage(encodeResponse(msg, 512));
    expect(truncated.tc).toBe(true);
    expect(truncated.answers).toEqual([]);
    expect(truncated.questions).toEqual(msg.questions);
    expect(truncated.additionals.map((rr) => rr.type)).toEqual([41]);
    expect(decodeMessage(encodeResponse(msg, 65535)).tc).toBe(false);
  });

  test('names: escapes, trailing dot, the root', () => {
    expect(nameToWire('')).toEqual(hex('00'));
    expect(nameToWire('a.b.')).toEqual(hex('01 61 01 62 00'));
    expect(textToLabels('a\\.b.c').map(String)).toEqual(['a.b', 'c']);
    expect(textToLabels('x\\032y').map(String)).toEqual(['x y']);
    expect(() => nameToWire(`${'a'.repeat(64)}.com`)).toThrow(RangeError);
    // A label with a dot in it survives decode -> text -> encode.
    const packet = hex('0001 0100 0001 0000 0000 0000 03 612e62 00 0001 0001');
    const msg = decodeMessage(packet);
    expect(msg.questions[0]?.name).toBe('a\\046b');
    expect(encodeMessage(msg)).toEqual(packet);
  });
});

describe('RDATA', () => {
  test('TXT up to 255 bytes is one string; longer text is split into 255-byte strings', () => {
    expect(txtRdata('')).toEqual(hex('00'));
    expect(txtStrings(txtRdata('hello'))).toEqual(['hello']);
    const long = `v=DKIM1; k=rsa; p=${'M'.repeat(600)}`;
    const strings = txtStrings(txtRdata(long));
    expect(strings.map((s) => s.length)).toEqual([255, 255, long.length - 510]);
    expect(strings.join('')).toBe(long);
  });

  test('TXT splitting never cuts a multi-byte character', () => {
    const text = `${'a'.repeat(254)}é${'€'.repeat(100)}`;
    const strings = txtStrings(txtRdata(text));
    expect(strings.join('')).toBe(text);
    for (const s of strings) expect(Buffer.byteLength(s)).toBeLessThanOrEqual(255);
    expect(strings[0]).toBe('a'.repeat(254));
  });

  test('addresses', () => {
    expect(aRdata('192.0.2.10')).toEqual(hex('c000020a'));
    expect(aaaaRdata('2001:db8::1')).toEqual(hex('20010db8000000000000000000000001'));
    expect(aaaaRdata('::')).toEqual(Buffer.alloc(16));
    expect(aaaaRdata('::ffff:192.0.2.1')).toEqual(hex('00000000000000000000ffffc0000201'));
    expect(aaaaRdata('fe80::1:2')).toEqual(hex('fe800000000000000000000000010002'));
    expect(aaaaRdata('1:2:3:4:5:6:7:8')).toEqual(hex('00010002000300040005000600070008'));
    expect(() => aRdata('256.1.1.1')).toThrow(RangeError);
    expect(() => aaaaRdata('1::2::3')).toThrow(RangeError);
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
