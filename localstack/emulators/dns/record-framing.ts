/**
 * What dns-packet does not check when it decodes: that each record's RDATA is exactly its RDLENGTH
 * (RFC 1035 3.2.1, 4.1.3), and that nothing follows the last record. Its RDATA decoders read by type
 * (4 bytes for an A record, a name for MX ...) whatever RDLENGTH says, so a record whose RDATA is
 * shorter or longer than declared, or runs past the end of the message, would otherwise decode as
 * something else. Walks the message as dns-packet reads it and throws DnsFormatError on a mismatch.
 */
import { DnsFormatError } from './errors';
import { nameCodec, recordCodec } from './packet-codecs';

const HEADER_SIZE = 12;
/** TYPE, CLASS, TTL and RDLENGTH after a record's owner name. */
const RECORD_FIXED_SIZE = 10;

export function checkRecordFraming(buf: Buffer): void {
  const counts = [buf.readUInt16BE(4), buf.readUInt16BE(6), buf.readUInt16BE(8), buf.readUInt16BE(10)] as const;
  let pos = HEADER_SIZE;
  for (let i = 0; i < counts[0]; i++) {
    nameCodec.decode(buf, pos);
    pos += nameCodec.decode.bytes + 4;
  }
  const records = counts[1] + counts[2] + counts[3];
  for (let i = 0; i < records; i++) {
    nameCodec.decode(buf, pos);
    const fixed = pos + nameCodec.decode.bytes;
    if (fixed + RECORD_FIXED_SIZE > buf.length) throw new DnsFormatError(`record at offset ${pos} runs past the end of the message`);
    const end = fixed + RECORD_FIXED_SIZE + buf.readUInt16BE(fixed + 8);
    if (end > buf.length) throw new DnsFormatError(`record at offset ${pos} has RDATA running past the end of the message`);
    recordCodec.decode(buf, pos);
    if (pos + recordCodec.decode.bytes !== end) {
      throw new DnsFormatError(
        `record at offset ${pos}: its RDATA does not fill exactly its RDLENGTH of ${end - fixed - RECORD_FIXED_SIZE}`,
      );
    }
    pos = end;
  }
  if (pos !== buf.length) throw new DnsFormatError(`${buf.length - pos} unexpected bytes after the last record`);
}
