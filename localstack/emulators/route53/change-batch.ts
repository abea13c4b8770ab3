/**
 * A ChangeResourceRecordSets batch, all or nothing as Route 53 applies it: every change is checked
 * against the state the changes before it leave (CREATE of an existing set, DELETE of a missing one,
 * names outside the zone, TTL and ResourceRecords, the DNS emulator's own rules), then a CNAME must be
 * alone at its name after the whole batch (RFC 1034). Each problem is reported, in Route 53's wording
 * where the emulator meets the same case; only a batch without any is written.
 */
import { fromQuoted, setAt, type DnsRecordsBackend } from '../dns/hosted';
import { isAtOrBelow, parseName } from '../dns/names';
import { RECORD_TYPES, type DnsRecordSet, type DnsRecordType } from '../dns/types';
import { validateRecordSet } from '../dns/validate';
import { dotted } from './names';
import type { HostedZone } from './types';
import { child, children, textOf, type XmlElement } from './request';

/** The state after the batch, by `<name> <type>`: the set to write, or null to delete it. */
export type BatchOutcome = Map<string, DnsRecordSet | null>;

export interface BatchPlan {
  after: BatchOutcome;
  /** Route 53's messages for what is wrong, in the order of the changes; empty when the batch may be written. */
  problems: string[];
}

interface ChangeTarget {
  name: string;
  type: DnsRecordType;
  /** `[name='…', type='…']`, as Route 53's messages name a set. */
  where: string;
}

const keyOf = (name: string, type: string) => `${name} ${type}`;

/** The batch's outcome and problems; nothing is written. */
export function planBatch(dns: DnsRecordsBackend, zone: HostedZone, changes: XmlElement[]): BatchPlan {
  const plan: BatchPlan = { after: new Map(), problems: [] };
  for (const change of changes) planChange(dns, zone, change, plan);
  plan.problems.push(...cnameConflicts(dns, zone, plan.after));
  return plan;
}

/** Writes the outcome: deletions first, so a CNAME replacing other records (or the reverse) never meets them. */
export function applyBatch(dns: DnsRecordsBackend, after: BatchOutcome): void {
  const entries = [...after.entries()].sort(([, a], [, b]) => (a === null ? -1 : 0) - (b === null ? -1 : 0));
  for (const [key, set] of entries) {
    const [name, type] = key.split(' ') as [string, DnsRecordType];
    if (set === null) dns.deleteRecords(name, type);
    else dns.setRecords(set);
  }
}

function planChange(dns: DnsRecordsBackend, zone: HostedZone, change: XmlElement, plan: BatchPlan): void {
  const action = textOf(change, 'Action');
  const set = child(change, 'ResourceRecordSet');
  const target = targetOf(set, zone);
  if (typeof target === 'string') {
    plan.problems.push(target);
    return;
  }
  const values = valuesOf(set, target.type, plan.problems);
  const ttl = Number(textOf(set, 'TTL') ?? NaN);
  const key = keyOf(target.name, target.type);
  const existing = plan.after.has(key) ? plan.after.get(key)! : (setAt(dns, target.name, target.type) ?? null);
  const outcome = outcomeOf(action, target, values, ttl, existing);
  if ('problem' in outcome) plan.problems.push(outcome.problem);
  else plan.after.set(key, outcome.set);
}

/** The set a change names, or the problem with its name, type or kind (alias and routing-policy sets are not emulated). */
function targetOf(set: XmlElement | undefined, zone: HostedZone): ChangeTarget | string {
  const rawName = textOf(set, 'Name') ?? '';
  const type = (textOf(set, 'Type') ?? '') as DnsRecordType;
  let name: string;
  try {
    name = parseName(
      rawName.replace(/\\(\d{3})/g, (_, d: string) => String.fromCharCode(Number(d))),
      'Name',
    );
  } catch (error) {
    return `Invalid Resource Record: ${(error as Error).message}`;
  }
  const where = `[name='${dotted(name)}', type='${type}']`;
  if (!isAtOrBelow(name, zone.name)) return `RRSet with DNS name ${dotted(name)} is not permitted in zone ${dotted(zone.name)}`;
  if (!RECORD_TYPES.includes(type))
    return `The emulator supports ${RECORD_TYPES.join(', ')} record sets; ${type || '(none)'} ${where} is not one of them`;
  if (child(set, 'AliasTarget') || textOf(set, 'SetIdentifier'))
    return `Alias and routing-policy record sets are not supported by the emulator ${where}`;
  return { name, type, where };
}

/** The set's values as the DNS emulator keeps them (TXT unquoted); an unquoted TXT value is a problem and left out. */
function valuesOf(set: XmlElement | undefined, type: DnsRecordType, problems: string[]): string[] {
  const values: string[] = [];
  for (const record of children(child(set, 'ResourceRecords'), 'ResourceRecord')) {
    const value = textOf(record, 'Value') ?? '';
    if (type !== 'TXT') {
      values.push(value);
      continue;
    }
    const text = fromQuoted(value);
    if (text === null)
      problems.push(
        `Invalid Resource Record: FATAL problem: InvalidCharacterString (Value should be enclosed in quotation marks) encountered with '${value}'`,
      );
    else values.push(text);
  }
  return values;
}

/** What the change makes of the set (`existing`: the set before it, within the batch): the set after, null when deleted, or the problem. */
function outcomeOf(
  action: string | undefined,
  target: ChangeTarget,
  values: string[],
  ttl: number,
  existing: DnsRecordSet | null,
): { set: DnsRecordSet | null } | { problem: string } {
  const { name, type, where } = target;
  if (action === 'DELETE')
    return existing ? { set: null } : { problem: `Tried to delete resource record set ${where} but it was not found` };
  if (action !== 'CREATE' && action !== 'UPSERT') return { problem: `Unknown action ${action ?? '(none)'} ${where}` };
  if (action === 'CREATE' && existing) return { problem: `Tried to create resource record set ${where} but it already exists` };
  if (!Number.isInteger(ttl)) {
    return {
      problem: `Invalid request: Expected exactly one of [AliasTarget, all of [TTL, and ResourceRecords]], but found none in Change with [Action=${action}, Name=${dotted(name)}, Type=${type}]`,
    };
  }
  try {
    return { set: validateRecordSet({ name, type, values, ttl }).set };
  } catch (error) {
    return { problem: `Invalid Resource Record: ${(error as Error).message} ${where}` };
  }
}

/** A CNAME must be alone at its name after the whole batch (RFC 1034): one problem per name where it is not. */
function cnameConflicts(dns: DnsRecordsBackend, zone: HostedZone, after: BatchOutcome): string[] {
  const problems: string[] = [];
  for (const name of new Set([...after.keys()].map((key) => key.split(' ')[0]!))) {
    const typesThere = new Set<string>(
      dns
        .listRecords(name)
        .filter((s) => s.name === name)
        .map((s) => s.type),
    );
    for (const [key, set] of after) {
      const [setName, type] = key.split(' ');
      if (setName !== name) continue;
      if (set) typesThere.add(type!);
      else typesThere.delete(type!);
    }
    if (typesThere.has('CNAME') && typesThere.size > 1) {
      const others = [...typesThere].filter((t) => t !== 'CNAME').join(', ');
      problems.push(
        `RRSet of type CNAME with DNS name ${dotted(name)} is not permitted because a conflicting RRSet of type ${others} with the same DNS name exists in zone ${dotted(zone.name)}.`,
      );
    }
  }
  return problems;
}
