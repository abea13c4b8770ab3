/**
 * DNS apply through Amazon Route 53 (the DnsHost port): the hosted zone found by name
 * (ListHostedZonesByName, the longest public zone that is the domain or a parent of it), record sets read
 * with ListResourceRecordSets and written with ChangeResourceRecordSets UPSERTs of whole sets (other
 * values of a set are part of what is written back, so they stay), then GetChange until INSYNC.
 *
 * All the sets go in one change batch (Route 53 applies a batch all or nothing); when Route 53 refuses
 * the batch (InvalidChangeBatch, InvalidInput), each set is sent alone so one bad set (a CNAME where
 * other records are) does not keep the others from being written.
 */
import {
  ChangeResourceRecordSetsCommand,
  GetChangeCommand,
  ListHostedZonesByNameCommand,
  ListResourceRecordSetsCommand,
  type Change,
  type Route53Client,
} from '@aws-sdk/client-route-53';
import { DnsHostError, type DnsHost } from '../../ports/dns-host';
import { hostOf, zoneCandidates, type DnsZone, type RecordSetOutcome, type RecordSetWrite } from '../../domain/domains/dns-apply';
import type { DnsRecordType } from '../../domain/domains/record-plan';
import { redact } from '../providers/http';
import { quoteTxt, unquoteTxt } from './txt';

export const ROUTE53_TTL = 300;

const AUTH_ERRORS = new Set([
  'InvalidClientTokenId',
  'UnrecognizedClientException',
  'SignatureDoesNotMatch',
  'IncompleteSignature',
  'InvalidSignatureException',
  'MissingAuthenticationToken',
  'ExpiredToken',
  'ExpiredTokenException',
  'AuthFailure',
  'CredentialsProviderError',
]);
const DENIED_ERRORS = new Set(['AccessDenied', 'AccessDeniedException', 'NotAuthorized']);
const REFUSED_BATCH = new Set(['InvalidChangeBatch', 'InvalidInput']);

export interface Route53DnsHostOptions {
  /** Values never to appear in a message (the credentials given). */
  secrets?: readonly string[];
  /** How long settle() polls GetChange; default 10 s. 0: do not wait. */
  settleMs?: number;
  pollMs?: number;
  /** The client is this request's own (one-time credentials): close() destroys it. */
  ownsClient?: boolean;
}

/** Route 53 writes `*` and other special characters of names as \DDD escapes: undone for comparison. */
const nameOf = (name: string) => hostOf(name.replace(/\\(\d{3})/g, (_, digits: string) => String.fromCharCode(Number(digits))));
const stripId = (id: string) => id.replace(/^\/(hostedzone|change)\//, '');

export class Route53DnsHost implements DnsHost {
  readonly provider = 'route53' as const;
  private readonly changeIds: string[] = [];

  constructor(
    private readonly client: Route53Client,
    private readonly options: Route53DnsHostOptions = {},
  ) {}

  async findZone(name: string): Promise<{ zone: DnsZone | null; tried: string[] }> {
    const candidates = zoneCandidates(name);
    const tried: string[] = [];
    for (const candidate of candidates) {
      tried.push(candidate);
      const answer = await this.call('ListHostedZonesByName', () =>
        this.client.send(new ListHostedZonesByNameCommand({ DNSName: candidate, MaxItems: 20 })),
      );
      const zones = (answer.HostedZones ?? []).filter((zone) => nameOf(zone.Name ?? '') === candidate);
      // Private zones answer only inside their VPCs: the public one is what the world (and SES) reads.
      const zone = zones.find((z) => z.Config?.PrivateZone !== true);
      if (zone?.Id) return { zone: { id: stripId(zone.Id), name: candidate }, tried };
    }
    return { zone: null, tried };
  }

  async read(zone: DnsZone, name: string, type: DnsRecordType): Promise<string[]> {
    const wanted = hostOf(name);
    const answer = await this.call('ListResourceRecordSets', () =>
      this.client.send(
        new ListResourceRecordSetsCommand({ HostedZoneId: zone.id, StartRecordName: wanted, StartRecordType: type, MaxItems: 20 }),
      ),
    );
    const values: string[] = [];
    for (const set of answer.ResourceRecordSets ?? []) {
      if (nameOf(set.Name ?? '') !== wanted || set.Type !== type) continue;
      // Sets with a routing policy (SetIdentifier) or an alias are not ours to merge into: UPSERT of a
      // simple set next to them is refused by Route 53, which the result then reports.
      if (set.SetIdentifier || set.AliasTarget) continue;
      for (const record of set.ResourceRecords ?? []) if (record.Value !== undefined) values.push(fromPresentation(type, record.Value));
    }
    return values;
  }

  async write(zone: DnsZone, sets: RecordSetWrite[]): Promise<RecordSetOutcome[]> {
    if (sets.length === 0) return [];
    const refused = await this.change(zone, sets);
    if (refused === null) return sets.map(() => ({ ok: true }));
    if (sets.length === 1) return [{ ok: false, message: refused }];
    // One set refused the batch: each alone, so the good ones are written.
    const outcomes: RecordSetOutcome[] = [];
    for (const set of sets) {
      const alone = await this.change(zone, [set]);
      outcomes.push(alone === null ? { ok: true } : { ok: false, message: alone });
    }
    return outcomes;
  }

  close(): void {
    if (this.options.ownsClient) this.client.destroy();
  }

  /** Polls every change made until Route 53 reports it INSYNC (served by all its name servers), within settleMs. */
  async settle(): Promise<boolean> {
    const budget = this.options.settleMs ?? 10_000;
    const every = this.options.pollMs ?? 1000;
    const deadline = Date.now() + budget;
    const pending = new Set(this.changeIds);
    while (pending.size > 0) {
      for (const id of [...pending]) {
        const answer = await this.call('GetChange', () => this.client.send(new GetChangeCommand({ Id: id })));
        if (answer.ChangeInfo?.Status === 'INSYNC') pending.delete(id);
      }
      if (pending.size === 0) return true;
      if (Date.now() + every > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, every));
    }
    return true;
  }

  /** One change batch of UPSERTs: null when accepted, else Route 53's reason for refusing it. */
  private async change(zone: DnsZone, sets: RecordSetWrite[]): Promise<string | null> {
    const changes: Change[] = sets.map((set) => ({
      Action: 'UPSERT',
      ResourceRecordSet: {
        Name: set.name,
        Type: set.type,
        TTL: ROUTE53_TTL,
        ResourceRecords: set.values.map((value) => ({ Value: toPresentation(set.type, value) })),
      },
    }));
    try {
      const answer = await this.client.send(
        new ChangeResourceRecordSetsCommand({
          HostedZoneId: zone.id,
          ChangeBatch: { Comment: 'DNS apply: sending domain records', Changes: changes },
        }),
      );
      if (answer.ChangeInfo?.Id) this.changeIds.push(stripId(answer.ChangeInfo.Id));
      return null;
    } catch (error) {
      const name = (error as { name?: string }).name ?? '';
      if (REFUSED_BATCH.has(name)) return this.scrub(`Route 53 refused the change: ${(error as Error).message}`);
      throw this.failure('ChangeResourceRecordSets', error);
    }
  }

  private async call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.failure(operation, error);
    }
  }

  private failure(operation: string, error: unknown): DnsHostError {
    const e = (error ?? {}) as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const name = e.name ?? 'Error';
    const said = this.scrub(e.message ?? String(error));
    if (AUTH_ERRORS.has(name) || /could not load credentials/i.test(said)) {
      return new DnsHostError({ kind: 'auth', message: `Route 53 refused the AWS credentials (${name} on ${operation}): ${said}` });
    }
    if (DENIED_ERRORS.has(name) || e.$metadata?.httpStatusCode === 403) {
      return new DnsHostError({
        kind: 'not_permitted',
        message: `The AWS credentials may not call route53:${operation} (${name}): ${said}. They need route53:ListHostedZonesByName, ListResourceRecordSets, ChangeResourceRecordSets and GetChange.`,
      });
    }
    return new DnsHostError({ kind: 'unavailable', message: `Route 53 could not be reached or failed (${name} on ${operation}): ${said}` });
  }

  private scrub(text: string): string {
    return redact(text, this.options.secrets ?? []);
  }
}

function toPresentation(type: DnsRecordType, value: string): string {
  return type === 'TXT' ? quoteTxt(value) : value;
}

function fromPresentation(type: DnsRecordType, value: string): string {
  if (type === 'TXT') return unquoteTxt(value);
  if (type === 'CNAME') return hostOf(value);
  const [priority, host] = value.trim().split(/\s+/);
  return `${priority} ${hostOf(host ?? '')}`;
}
