/**
 * The bounds a DMARC aggregate report is read within (docs/deliverability.md, "DMARC aggregate reports").
 * A report from a stranger is refused (./refusal.ts names why) the moment it passes one of them, before the
 * work it would cost: a compressed file is never inflated past MAX_XML_BYTES, a zip's entries are
 * counted and named before any is inflated, the records are counted before the XML is parsed.
 *
 * The figures: Google's and Microsoft's daily reports for a domain sending a few million messages a day
 * are a few hundred records and well under 1 MiB of XML; the bounds leave room for ten times that.
 */

/** A report file as received (a .zip, .gz or .xml attachment, or an inline body). */
export const MAX_COMPRESSED_BYTES = 10 * 1024 * 1024;
/** The report's XML, once decompressed. */
export const MAX_XML_BYTES = 16 * 1024 * 1024;
/** Entries in a zip: receivers send one XML file; a few more are tolerated (and ignored), never thousands. */
export const MAX_ZIP_ENTRIES = 8;
/** `<record>` elements of one report. */
export const MAX_RECORDS = 10_000;
/** `auth_results` entries (dkim and spf, each) of one record. */
export const MAX_AUTH_RESULTS = 20;
/** Report files read from one message (the rest are ignored). */
export const MAX_REPORT_PARTS = 4;
/** Element nesting of the XML (a report nests 5 deep; fast-xml-parser refuses past it). */
export const MAX_XML_NESTING = 20;

/** Field lengths (characters), checked by the schema (./report-schema.ts). */
export const FIELD_MAX = {
  org_name: 256,
  email: 320,
  report_id: 256,
  domain: 253,
  selector: 128,
  /** An IPv6 address with a zone, at most. */
  source_ip: 64,
  /** Free text (extra_contact_info, error, human_result, reason comment). */
  text: 1024,
  /** A result or other keyword (pass, fail, quarantine, mfrom). */
  keyword: 32,
} as const;
