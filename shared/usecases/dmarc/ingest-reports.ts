/**
 * The inbound worker's DMARC step (docs/deliverability.md, "DMARC aggregate reports"): after a received
 * message is recorded (shared/usecases/inbound/process-inbound.ts, unchanged: the report email is kept
 * like any other), its report files are read and their figures stored, when it was sent to a domain's
 * report address.
 *
 * 1. Report files: attachments that are gzip, zip or XML, else an inline XML body
 *    (shared/domain/dmarc/report-parts.ts). A message without any asks nothing more (no read).
 * 2. Report addresses: for each recipient, the domains whose reports go there (one Query each,
 *    shared/adapters/store/dmarc-addresses.ts), of the message's account only.
 * 3. Each file is read within the bounds (shared/domain/dmarc/report-file.ts); a refused one is logged
 *    and counted (metric DmarcReports, Outcome=refused, Reason), never thrown.
 * 4. The report counts for the domain it names (policy_published/domain) if that domain sends its
 *    reports to one of the recipients (its current address, read again: a pointer left by a change is
 *    ignored); else `not_for_domain`. Its rows (shared/domain/dmarc/report-rows.ts: ours vs others from
 *    the domain's selector) are saved once per (reporter, report_id).
 *
 * Nothing here fails the message: a storage failure left after the SDK's retries is logged and counted
 * (Outcome=failed) and the report is not counted, rather than retrying a message whose received email is
 * recorded (and whose raw message a domain keeping no content has deleted).
 */
import { METRICS_NAMESPACE } from '../../config/metrics';
import { reportRows } from '../../domain/dmarc/report-rows';
import { reportParts, type MessagePart, type ReportPart } from '../../domain/dmarc/report-parts';
import { parseReportFile } from '../../domain/dmarc/report-file';
import type { AggregateReport } from '../../domain/dmarc/report-schema';
import { ReportRefused, type RefusalReason } from '../../domain/dmarc/refusal';
import { splitAddress } from '../../domain/inbound/address';
import type { InboundMessage } from '../../domain/messages';
import { logError, logMetric, logWarn } from '../../lib/log';
import type { DmarcAddressRepository, ReportAddressTarget } from '../../adapters/store/dmarc-addresses';
import type { DmarcReportRepository } from '../../adapters/store/dmarc-reports';
import type { DomainCrud } from '../../adapters/store/domains/crud';

export interface IngestReportsDeps {
  dmarcAddresses: Pick<DmarcAddressRepository, 'domainsFor'>;
  dmarcReports: Pick<DmarcReportRepository, 'save'>;
  domains: Pick<DomainCrud, 'get'>;
}

export type ReportOutcome =
  | { kind: 'stored' | 'duplicate'; part: string; domain_id: string; reporter: string; report_id: string; day: string; messages: number }
  | { kind: 'refused'; part: string; reason: RefusalReason; detail: string }
  | { kind: 'not_for_domain'; part: string; domain: string }
  | { kind: 'failed'; part: string };

/** The CloudWatch EMF fields of one report's outcome: metric DmarcReports (Count) by Outcome. */
function metric(outcome: ReportOutcome['kind']) {
  return {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [['Outcome']], Metrics: [{ Name: 'DmarcReports', Unit: 'Count' }] }],
    },
    Outcome: outcome,
    DmarcReports: 1,
  };
}

/** The domains (of the message's account) whose reports go to one of its recipients, with the recipient. */
async function targetsOf(
  deps: IngestReportsDeps,
  message: Pick<InboundMessage, 'account_id' | 'rcpt_to'>,
): Promise<(ReportAddressTarget & { address: string })[]> {
  const addresses = [
    ...new Set(message.rcpt_to.map((address) => address.toLowerCase()).filter((address) => splitAddress(address) !== null)),
  ];
  const found = await Promise.all(
    addresses.map(async (address) => (await deps.dmarcAddresses.domainsFor(address)).map((target) => ({ ...target, address }))),
  );
  return found.flat().filter((target) => target.account_id === message.account_id);
}

async function ingestPart(
  deps: IngestReportsDeps,
  message: Pick<InboundMessage, 'email_id' | 'account_id' | 'received_at'>,
  part: ReportPart,
  targets: (ReportAddressTarget & { address: string })[],
): Promise<ReportOutcome> {
  let report: AggregateReport;
  try {
    report = parseReportFile(part.content);
  } catch (error) {
    if (error instanceof ReportRefused) return { kind: 'refused', part: part.name, reason: error.reason, detail: error.message };
    throw error;
  }
  const domainName = report.policy_published.domain;
  for (const target of targets.filter((candidate) => candidate.domain === domainName)) {
    const domain = (await deps.domains.get(target.domain_id))?.domain;
    if (!domain || domain.account_id !== message.account_id || domain.dmarc_reports_address !== target.address) continue;
    const rows = reportRows(report, { domain: domain.name, selector: domain.dkim_selector });
    const saved = await deps.dmarcReports.save({
      accountId: message.account_id,
      domainId: domain.id,
      report: rows,
      receivedEmailId: message.email_id,
      receivedAt: message.received_at,
    });
    return {
      kind: saved,
      part: part.name,
      domain_id: domain.id,
      reporter: rows.reporter,
      report_id: rows.report_id,
      day: rows.day,
      messages: rows.rows.reduce((sum, row) => sum + row.messages, 0),
    };
  }
  return { kind: 'not_for_domain', part: part.name, domain: domainName };
}

/** The message's ids, on each of its log lines. */
type MessageIds = { email_id: string; account_id: string };

/** One report's outcome in the log, with its metric: refused and not for the domain as warnings, stored or duplicate as info. */
function logOutcome(ids: MessageIds, outcome: ReportOutcome): void {
  if (outcome.kind === 'refused')
    logWarn('dmarc: report refused', {
      ...ids,
      part: outcome.part,
      reason: outcome.reason,
      detail: outcome.detail.slice(0, 300),
      Reason: outcome.reason,
      ...metric('refused'),
    });
  else if (outcome.kind === 'not_for_domain')
    logWarn('dmarc: report for a domain that does not send its reports here; not counted', {
      ...ids,
      part: outcome.part,
      domain: outcome.domain.slice(0, 253),
      ...metric('not_for_domain'),
    });
  else if (outcome.kind === 'stored' || outcome.kind === 'duplicate')
    // Its metric is written whatever the level (the functions log at warn by default).
    logMetric(`dmarc: report ${outcome.kind}`, {
      ...ids,
      part: outcome.part,
      domain_id: outcome.domain_id,
      reporter: outcome.reporter,
      report_id: outcome.report_id,
      day: outcome.day,
      messages: outcome.messages,
      ...metric(outcome.kind),
    });
}

/** One part ingested and its outcome logged; a storage or unexpected failure is logged and counted, never thrown. */
async function ingestLogged(
  deps: IngestReportsDeps,
  message: Pick<InboundMessage, 'email_id' | 'account_id' | 'received_at'>,
  part: ReportPart,
  targets: (ReportAddressTarget & { address: string })[],
): Promise<ReportOutcome> {
  const ids: MessageIds = { email_id: message.email_id, account_id: message.account_id };
  let outcome: ReportOutcome;
  try {
    outcome = await ingestPart(deps, message, part, targets);
  } catch (error) {
    logError('dmarc: report not counted (a storage or unexpected failure); the message is recorded', error, {
      ...ids,
      part: part.name,
      ...metric('failed'),
    });
    return { kind: 'failed', part: part.name };
  }
  logOutcome(ids, outcome);
  return outcome;
}

export async function ingestDmarcReports(
  deps: IngestReportsDeps,
  message: Pick<InboundMessage, 'email_id' | 'account_id' | 'rcpt_to' | 'received_at'>,
  parsed: { attachments: readonly MessagePart[]; text: string | null },
): Promise<ReportOutcome[]> {
  const parts = reportParts(parsed);
  if (parts.length === 0) return [];
  let targets: (ReportAddressTarget & { address: string })[];
  try {
    targets = await targetsOf(deps, message);
  } catch (error) {
    logError('dmarc: could not read the report addresses; the message is recorded, its reports not counted', error, {
      email_id: message.email_id,
      account_id: message.account_id,
      ...metric('failed'),
    });
    return parts.map((part) => ({ kind: 'failed', part: part.name }));
  }
  if (targets.length === 0) return [];
  const outcomes: ReportOutcome[] = [];
  for (const part of parts) outcomes.push(await ingestLogged(deps, message, part, targets));
  return outcomes;
}
