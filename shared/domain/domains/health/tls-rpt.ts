/**
 * SMTP TLS reporting (RFC 8460): `_smtp._tls.<domain>` TXT `v=TLSRPTv1; rua=...` asks senders for daily
 * reports of their TLS failures delivering to the domain (most useful beside MTA-STS). Low impact. Pure.
 */
import type { Lookup } from '../evaluate';
import { dnsError, finding, parseTagList, recordsStartingWith, type HealthFinding } from './finding';

export function evaluateTlsRptHealth(input: { domain: string; lookup: Lookup }): HealthFinding[] {
  const name = `_smtp._tls.${input.domain}`;
  const { lookup } = input;
  const record = { type: 'TXT' as const, name, value: `v=TLSRPTv1; rua=mailto:tls-reports@${input.domain}` };
  if (lookup.kind === 'error') return [dnsError('tls_rpt', name, lookup)];
  const records = recordsStartingWith(lookup, /^v=TLSRPTv1\s*(;|$)/);
  if (records.length === 0) {
    return [
      finding(
        'tls_rpt_missing',
        `${input.domain} publishes no TLS-RPT record: senders that fail to deliver to it over TLS cannot tell you. Publish it (the address must receive mail).`,
        record,
      ),
    ];
  }
  const tags = records.length === 1 ? parseTagList(records[0]!) : null;
  const rua = tags?.get('rua') ?? '';
  if (!rua.split(',').some((uri) => /^(mailto:|https:)/i.test(uri.trim()))) {
    return [
      finding(
        'tls_rpt_invalid',
        `${name} must hold exactly one record "v=TLSRPTv1; rua=<mailto: or https: URI>"; senders ignore what is there.`,
        record,
      ),
    ];
  }
  return [];
}
