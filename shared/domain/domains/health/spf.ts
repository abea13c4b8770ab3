/**
 * SPF health (RFC 7208): one `v=spf1` record at the domain, the service's include in it, no `+all`
 * (anyone may send as the domain) nor `?all`, and at most 10 DNS-querying terms in all, nested includes
 * counted (section 4.6.4: past 10 every receiver answers permerror, which DMARC reads as an SPF fail).
 * Pure: the use case fetches the TXT answers of the domain and of the names its record includes
 * (`spfTargets` says which), then `evaluateSpfHealth` reads them.
 */
import type { Lookup } from '../evaluate';
import { spfValue } from '../records';
import { dnsError, finding, type HealthFinding } from './finding';

/** RFC 7208 section 4.6.4: the terms that query DNS, at most 10 per check_host() evaluation. */
export const SPF_LOOKUP_LIMIT = 10;
const LOOKUP_TERMS = new Set(['include', 'a', 'mx', 'ptr', 'exists', 'redirect']);
/** Counting stops here (a wide tree of repeated includes would otherwise be walked exponentially). */
const MAX_COUNTED = 2 * SPF_LOOKUP_LIMIT;
const MAX_DEPTH = 12;

export interface SpfTerm {
  /** `+`, `-`, `~`, `?` for mechanisms (`+` when none is written); null for modifiers. */
  qualifier: '+' | '-' | '~' | '?' | null;
  /** Lower-cased mechanism or modifier name: include, a, mx, all, redirect, exp, ... */
  name: string;
  /** The domain or value after `:` or `=`, lower-cased, without a trailing dot; null when none. */
  target: string | null;
  raw: string;
}

const norm = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

export const isSpfRecord = (value: string) => /^v=spf1(\s|$)/i.test(value.trim());

export function spfRecords(lookup: Extract<Lookup, { kind: 'found' } | { kind: 'none' }>): string[] {
  return lookup.kind === 'found' ? lookup.values.map((value) => value.trim()).filter(isSpfRecord) : [];
}

/** The terms of an SPF record (after `v=spf1`). */
export function parseSpf(record: string): SpfTerm[] {
  return record
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((raw) => {
      const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(raw);
      if (modifier) return { qualifier: null, name: modifier[1]!.toLowerCase(), target: norm(modifier[2]!) || null, raw };
      const mechanism = /^([+?~-]?)([a-z0-9]+)(?::([^/]*))?/i.exec(raw);
      const qualifier = (mechanism?.[1] || '+') as SpfTerm['qualifier'];
      return { qualifier, name: (mechanism?.[2] ?? raw).toLowerCase(), target: mechanism?.[3] ? norm(mechanism[3]) : null, raw };
    });
}

/** The names whose SPF record this one makes receivers read: include targets, and redirect's when no `all`. */
export function spfTargets(record: string): string[] {
  const terms = parseSpf(record);
  const hasAll = terms.some((term) => term.name === 'all');
  return terms
    .filter((term) => (term.name === 'include' || (term.name === 'redirect' && !hasAll)) && term.target && !term.target.includes('%'))
    .map((term) => term.target!);
}

interface Walk {
  lookups: number;
  loop: string[] | null;
  unresolvable: string[];
  failed: { name: string; message: string }[];
  /** A name the use case did not fetch (its time ran out): the count is a lower bound. */
  incomplete: boolean;
}

/**
 * Counts the DNS-querying terms of `record` and, through `answers`, of every record it includes, as a
 * receiver would evaluate them.
 */
function walk(record: string, path: string[], answers: ReadonlyMap<string, Lookup>, serviceInclude: string, w: Walk): void {
  const terms = parseSpf(record);
  const hasAll = terms.some((term) => term.name === 'all');
  for (const term of terms) {
    if (!LOOKUP_TERMS.has(term.name) || (term.name === 'redirect' && hasAll)) continue;
    if (w.lookups >= MAX_COUNTED) return;
    w.lookups++;
    if (term.name !== 'include' && term.name !== 'redirect') continue;
    const target = term.target;
    // A macro (%{i}) depends on the connecting client: counted, not followed.
    if (!target || target.includes('%')) continue;
    if (path.includes(target)) {
      w.loop ??= [...path, target];
      continue;
    }
    if (path.length >= MAX_DEPTH) continue;
    const answer = answers.get(target);
    if (!answer) {
      w.incomplete = true;
      continue;
    }
    if (answer.kind === 'error') {
      w.failed.push({ name: target, message: answer.message });
      continue;
    }
    const found = spfRecords(answer);
    if (found.length !== 1) {
      // The service's own include is the operator's to publish (it may not exist on a local cloud).
      if (target !== serviceInclude) w.unresolvable.push(target);
      continue;
    }
    walk(found[0]!, [...path, target], answers, serviceInclude, w);
  }
}

/** The record with its final `all` replaced by `~all` (or `~all` added when it has none and no redirect). */
function withSoftFail(record: string): string {
  const terms = record.trim().split(/\s+/);
  const index = terms.findIndex((term) => /^[+?~-]?all$/i.test(term));
  if (index >= 0) terms[index] = '~all';
  else terms.push('~all');
  return terms.join(' ');
}

export interface SpfHealth {
  findings: HealthFinding[];
  /** DNS-querying terms counted (a lower bound when a lookup failed or was not made); null without one SPF record. */
  lookups: number | null;
}

/** Findings on the record's own terms: our include missing, and an `all` that authorizes everyone or no one. */
function termFindings(domain: string, include: string, record: string): HealthFinding[] {
  const terms = parseSpf(record);
  const findings: HealthFinding[] = [];
  if (!terms.some((term) => term.name === 'include' && term.target === include)) {
    findings.push(
      finding(
        'spf_include_missing',
        `The SPF record of ${domain} does not include include:${include}, so mail the service sends fails SPF. Add it.`,
        {
          type: 'TXT',
          name: domain,
          value: record.replace(/^v=spf1/i, `v=spf1 include:${include}`),
        },
      ),
    );
  }
  const all = terms.find((term) => term.name === 'all');
  if (all?.qualifier === '+') {
    findings.push(
      finding(
        'spf_pass_all',
        `The SPF record of ${domain} ends with "${all.raw}": it authorizes every server on the internet to send as ${domain}. Use ~all (or -all).`,
        { type: 'TXT', name: domain, value: withSoftFail(record) },
      ),
    );
  } else if (all?.qualifier === '?' || (!all && !terms.some((term) => term.name === 'redirect'))) {
    findings.push(
      finding(
        'spf_neutral_all',
        `The SPF record of ${domain} ${all ? `ends with "${all.raw}"` : 'has no all term'}: mail from other servers gets a neutral result instead of a fail. Use ~all (or -all).`,
        {
          type: 'TXT',
          name: domain,
          value: withSoftFail(record),
        },
      ),
    );
  }
  return findings;
}

/** Findings on what the record's includes lead to (walked through `answers`): loops, dead includes, the lookup limit, DNS failures. */
function walkFindings(domain: string, w: Walk): HealthFinding[] {
  const findings: HealthFinding[] = [];
  if (w.loop) {
    findings.push(
      finding(
        'spf_include_loop',
        `The SPF includes of ${domain} loop (${w.loop.join(' -> ')}): receivers stop at the lookup limit with a permanent error. Remove the include that points back.`,
      ),
    );
  }
  for (const name of w.unresolvable) {
    findings.push(
      finding(
        'spf_include_unresolvable',
        `The SPF record of ${domain} includes ${name}, which publishes no single SPF record: receivers answer a permanent error. Remove or correct that include.`,
      ),
    );
  }
  if (w.lookups > SPF_LOOKUP_LIMIT) {
    findings.push(
      finding(
        'spf_too_many_lookups',
        `The SPF record of ${domain} needs ${w.lookups >= MAX_COUNTED ? `at least ${MAX_COUNTED}` : w.lookups} DNS lookups (include, a, mx, ptr, exists, redirect, nested includes counted); receivers stop at ${SPF_LOOKUP_LIMIT} with a permanent error, which DMARC counts as an SPF fail. Remove includes of services that no longer send for you, or replace a and mx terms by ip4/ip6.`,
      ),
    );
  }
  for (const failed of w.failed) findings.push(dnsError('spf', failed.name, failed));
  if (w.incomplete && w.failed.length === 0)
    findings.push(dnsError('spf', domain, { message: 'the lookups of its includes did not finish in time' }));
  return findings;
}

/**
 * `answers`: TXT answers by lower-case name: the domain's, and those of the names `spfTargets` gave
 * (transitively) that were fetched. `include`: the service's SPF include (the SPF_INCLUDE setting).
 */
export function evaluateSpfHealth(input: { domain: string; include: string; answers: ReadonlyMap<string, Lookup> }): SpfHealth {
  const domain = norm(input.domain);
  const include = norm(input.include);
  const answer = input.answers.get(domain) ?? { kind: 'error' as const, message: 'not looked up' };
  if (answer.kind === 'error') return { findings: [dnsError('spf', domain, answer)], lookups: null };
  const records = spfRecords(answer);
  if (records.length === 0) {
    return {
      findings: [
        finding(
          'spf_missing',
          `${domain} publishes no SPF record: receivers cannot tell which servers may send as it, and Gmail and Yahoo require SPF or DKIM of every sender (SPF and DKIM of bulk senders). Publish it.`,
          { type: 'TXT', name: domain, value: spfValue(include) },
        ),
      ],
      lookups: null,
    };
  }
  if (records.length > 1) {
    return {
      findings: [
        finding(
          'spf_multiple',
          `${domain} publishes ${records.length} SPF records; RFC 7208 makes that a permanent error for every message. Merge them into one that contains include:${include}.`,
        ),
      ],
      lookups: null,
    };
  }
  const record = records[0]!;
  const w: Walk = { lookups: 0, loop: null, unresolvable: [], failed: [], incomplete: false };
  walk(record, [domain], input.answers, include, w);
  return { findings: [...termFindings(domain, include, record), ...walkFindings(domain, w)], lookups: w.lookups };
}
