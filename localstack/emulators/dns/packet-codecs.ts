/**
 * dns-packet's part codecs: names, questions, records and RDATA by type. The package exports them
 * (`exports.name`, `exports.question`, `exports.answer`, `exports.record` in its index.js) but
 * @types/dns-packet 5.6.5 declares only the whole-message functions, so they are typed here. After each
 * call, `encode.bytes` / `decode.bytes` is how many bytes it wrote or read.
 */
import * as dnsPacket from 'dns-packet';

interface PartCodec<T> {
  encode: ((value: T, buf?: Buffer, offset?: number) => Buffer) & { bytes: number };
  decode: ((buf: Buffer, offset?: number) => T) & { bytes: number };
  encodingLength(value: T): number;
}

interface PartCodecs {
  name: PartCodec<string>;
  question: PartCodec<dnsPacket.Question>;
  answer: PartCodec<dnsPacket.Answer>;
  /** The RDATA codec of a type (by name); RDLENGTH is part of what it reads and writes. */
  record(type: string): PartCodec<unknown>;
}

const parts = dnsPacket as unknown as PartCodecs;

export const nameCodec = parts.name;
export const questionCodec = parts.question;
export const recordCodec = parts.answer;

/**
 * RDATA of one record of `type` (without its RDLENGTH), as dns-packet writes it. Only the bytes it
 * wrote: the buffer it allocates can be longer (its length for the name '' counts 2 bytes, it writes 1).
 */
export function rdataBytes(type: string, data: unknown): Buffer {
  const codec = parts.record(type);
  return codec.encode(data).subarray(2, codec.encode.bytes);
}
