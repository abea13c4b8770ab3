/**
 * A report's XML into the RFC 7489 Appendix C shape (./report-schema.ts), safely:
 *
 * - a DOCTYPE or ENTITY declaration anywhere is refused before parsing (`xml_doctype`): no external
 *   entity is ever fetched and no entity expanded (XXE, billion laughs); fast-xml-parser is also told not to
 *   process entities at all (`processEntities: false`, `htmlEntities: false`), so `&amp;` stays as written;
 * - the `<record>` elements are counted before parsing (`too_many_records` past MAX_RECORDS);
 * - well-formedness is checked by fast-xml-parser's validator first (`xml_invalid`), nesting bounded;
 * - namespace prefixes are removed (`<dmarc:feedback>` of DMARCbis reports), attributes ignored, values
 *   kept as trimmed strings (no number parsing: report ids keep their leading zeros);
 * - the result must be the schema's (`not_a_report` otherwise).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { MAX_RECORDS, MAX_XML_BYTES, MAX_XML_NESTING } from './limits';
import { refused } from './refusal';
import { reportDocumentSchema, type AggregateReport } from './report-schema';

/** Elements read as lists even when there is one of them. */
const LIST_PATHS = new Set([
  'feedback.record',
  'feedback.record.auth_results.dkim',
  'feedback.record.auth_results.spf',
  'feedback.report_metadata.error',
  'feedback.record.row.policy_evaluated.reason',
]);

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_XML_NESTING,
  isArray: (_name, jPath) => LIST_PATHS.has(String(jPath)),
});

const DOCTYPE = /<!\s*(DOCTYPE|ENTITY)/i;
const RECORD_OPEN = /<(?:[A-Za-z_][\w.-]*:)?record[\s>/]/g;

function countRecords(xml: string): number {
  let count = 0;
  RECORD_OPEN.lastIndex = 0;
  while (RECORD_OPEN.exec(xml)) if (++count > MAX_RECORDS) break;
  return count;
}

export function readReportXml(xml: string): AggregateReport {
  if (Buffer.byteLength(xml) > MAX_XML_BYTES) throw refused('decompressed_too_large', `the XML is over ${MAX_XML_BYTES} bytes`);
  if (DOCTYPE.test(xml)) throw refused('xml_doctype', 'the XML declares a DOCTYPE or an entity; reports never do');
  if (countRecords(xml) > MAX_RECORDS) throw refused('too_many_records', `more than ${MAX_RECORDS} records`);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw refused('xml_invalid', `${valid.err.msg} (line ${valid.err.line})`);
  let document: unknown;
  try {
    document = parser.parse(xml);
  } catch (error) {
    throw refused('xml_invalid', (error as Error)?.message ?? 'unreadable XML');
  }
  const parsed = reportDocumentSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw refused('not_a_report', `${issue.path.join('/') || 'the document'}: ${issue.message}`);
  }
  return parsed.data.feedback;
}
