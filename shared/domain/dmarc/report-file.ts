/**
 * One report file (an attachment, or a message body holding the XML) into its XML text, by what its bytes
 * are rather than what its Content-Type says (receivers label the same gzip application/gzip,
 * application/x-gzip or application/octet-stream): gzip (zlib, `maxOutputLength` MAX_XML_BYTES), zip
 * (./unzip.ts) or XML as it is. Then ./read-xml.ts reads it. Every refusal is a ReportRefused.
 */
import { gunzipSync } from 'node:zlib';
import { MAX_COMPRESSED_BYTES, MAX_XML_BYTES } from './limits';
import { readReportXml } from './read-xml';
import { refused } from './refusal';
import type { AggregateReport } from './report-schema';
import { xmlBytesOfZip } from './unzip';

export type ReportFileKind = 'gzip' | 'zip' | 'xml';

/** What the bytes are: gzip (1f 8b), zip (PK\3\4, or PK\5\6 for an empty one), XML (`<` after a BOM and blanks); null otherwise. */
export function sniffReportFile(content: Uint8Array): ReportFileKind | null {
  if (content[0] === 0x1f && content[1] === 0x8b) return 'gzip';
  if (content[0] === 0x50 && content[1] === 0x4b && (content[2] === 3 || content[2] === 5)) return 'zip';
  let i = content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf ? 3 : 0;
  while (i < content.length && i < 1024 && (content[i] === 0x20 || content[i] === 0x0a || content[i] === 0x0d || content[i] === 0x09)) i++;
  return content[i] === 0x3c ? 'xml' : null;
}

function gunzip(content: Uint8Array): Uint8Array {
  try {
    return gunzipSync(content, { maxOutputLength: MAX_XML_BYTES });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError)
      throw refused('decompressed_too_large', `the gzip inflates past ${MAX_XML_BYTES} bytes`);
    throw refused('gzip_invalid', (error as Error)?.message ?? 'unreadable gzip');
  }
}

const utf8 = new TextDecoder('utf-8');

/** The XML text of a report file (BOM removed). */
export function reportXmlOf(content: Uint8Array): string {
  if (content.length > MAX_COMPRESSED_BYTES) throw refused('file_too_large', `${content.length} bytes, at most ${MAX_COMPRESSED_BYTES}`);
  const kind = sniffReportFile(content);
  if (kind === null) throw refused('not_a_report', 'neither gzip, zip nor XML');
  const bytes = kind === 'gzip' ? gunzip(content) : kind === 'zip' ? xmlBytesOfZip(content) : content;
  return utf8.decode(bytes).replace(/^\uFEFF/, '');
}

/** A report file read and checked: the report, or a ReportRefused naming why not. */
export function parseReportFile(content: Uint8Array): AggregateReport {
  return readReportXml(reportXmlOf(content));
}
