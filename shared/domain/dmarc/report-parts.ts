/**
 * Which parts of a received message may be aggregate reports: attachments whose bytes are gzip, zip or
 * XML (./report-file.ts sniffs them; the declared Content-Type varies by receiver: application/gzip,
 * application/x-gzip, application/zip, application/x-zip-compressed, text/xml, application/xml,
 * application/octet-stream), else a text body that is the XML itself (a few small receivers send it
 * inline). At most MAX_REPORT_PARTS. Pure.
 */
import { MAX_REPORT_PARTS } from './limits';
import { sniffReportFile } from './report-file';

export interface MessagePart {
  filename: string | null;
  content_type: string;
  content: Uint8Array;
}

export interface ReportPart {
  /** What the part was: the attachment's file name, or `body`. */
  name: string;
  content: Uint8Array;
}

export function reportParts(message: { attachments: readonly MessagePart[]; text: string | null }): ReportPart[] {
  const files = message.attachments
    .filter((part) => part.content.length > 0 && sniffReportFile(part.content) !== null)
    .map((part) => ({ name: (part.filename ?? part.content_type).slice(0, 200), content: part.content }));
  if (files.length > 0) return files.slice(0, MAX_REPORT_PARTS);
  const body = message.text?.trim() ?? '';
  if (/^<\?xml[\s\S]{0,200}<(?:[\w-]+:)?feedback[\s>]/.test(body) || /^<(?:[\w-]+:)?feedback[\s>]/.test(body))
    return [{ name: 'body', content: Buffer.from(body) }];
  return [];
}
