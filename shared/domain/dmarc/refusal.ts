/**
 * Why a DMARC aggregate report was refused: each hostile or broken shape has its own reason, logged and
 * counted by the inbound worker (shared/usecases/dmarc/ingest-reports.ts). A refusal never fails the
 * message: the received email is recorded as any other.
 */
export const REFUSAL_REASONS = [
  /** The file is larger than MAX_COMPRESSED_BYTES. */
  'file_too_large',
  /** Decompressed past MAX_XML_BYTES (a gzip or zip bomb). */
  'decompressed_too_large',
  /** A gzip stream that does not inflate (truncated, corrupt). */
  'gzip_invalid',
  /** A zip that does not read (no central directory, corrupt data). */
  'zip_invalid',
  /** More than MAX_ZIP_ENTRIES entries. */
  'zip_too_many_entries',
  /** An entry name with `..`, an absolute path, a backslash or a control character. */
  'zip_unsafe_name',
  /** An entry whose data inflates past the size its headers declare. */
  'zip_size_mismatch',
  /** A compression method other than stored or deflate. */
  'zip_unsupported_compression',
  /** No `.xml` entry in the zip. */
  'zip_no_report',
  /** A DOCTYPE (or entity declaration): external entities and entity expansion are never read. */
  'xml_doctype',
  /** Not well-formed XML, or nested past MAX_XML_NESTING. */
  'xml_invalid',
  /** More than MAX_RECORDS records. */
  'too_many_records',
  /** Well-formed XML that is not an RFC 7489 Appendix C report (a field missing, wrong or too long). */
  'not_a_report',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export class ReportRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'ReportRefused';
  }
}

export const refused = (reason: RefusalReason, detail: string) => new ReportRefused(reason, detail);
