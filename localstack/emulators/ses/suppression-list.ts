/**
 * SES's suppression lists: the account-level list (on by default for BOUNCE and COMPLAINT) and one list
 * per tenant, which settings of a send decide which list applies and for which reasons, and the
 * operations that manage them. Throws SesError for client errors; knows nothing about HTTP.
 *
 * Sources (docs/local-cloud/ses.md, "Suppression list"):
 * - https://docs.aws.amazon.com/ses/latest/dg/sending-email-suppression-list.html : accounts created after
 *   25 Nov 2019 use the list for bounces and complaints; a send to a listed address whose reason is one
 *   of the enabled reasons is accepted but not sent (if they don't match, SES sends it); addresses stay
 *   until DeleteSuppressedDestination.
 * - https://docs.aws.amazon.com/ses/latest/dg/sending-email-suppression-list-config-level.html and
 *   https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SuppressionOptions.html : a configuration
 *   set's SuppressionOptions override the account (and tenant) settings; an empty SuppressedReasons
 *   means no suppression at all; its SuppressionScope overrides the tenant's or account's scope.
 * - https://docs.aws.amazon.com/ses/latest/dg/sending-email-suppression-list-tenant-level.html and
 *   https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_TenantSuppressionAttributes.html : a
 *   tenant's scope (ACCOUNT by default, or TENANT: its own list) and reasons (empty: don't check or
 *   record); scope and reasons are given together or both null.
 * - https://docs.aws.amazon.com/ses/latest/dg/send-an-email-from-console.html (mailbox simulator):
 *   simulator addresses are never added to the suppression list.
 */
import { SesError, badRequest, notFound } from './errors';
import { sesId } from './ids';
import { isValidAddress } from './mime';
import { BOUNCE_OF, LOCAL_EVENTS_DOMAIN, SIMULATOR_DOMAIN, type RecipientOutcome } from './simulator';
import type { SesStore } from './store';
import { page } from './paging';
import { SUPPRESSION_REASONS, type SuppressedEntry, type SuppressionFile, type SuppressionReason } from './suppression-file';
import type { ConfigurationSet, OperationResult, OutboxEntry, SesTenant } from './types';
import { isObject, optObject, optString, reqString, type Json } from './validate';

export const SUPPRESSION_SCOPES = ['ACCOUNT', 'TENANT'] as const;
export type SuppressionScope = (typeof SUPPRESSION_SCOPES)[number];

/** Which list a send uses and for which reasons it checks and records addresses. */
export interface SuppressionPolicy {
  reasons: readonly SuppressionReason[];
  /** The tenant whose own list applies; undefined for the account-level list. */
  tenant?: SesTenant;
}

/** Recipients matching these get outcomes of real addresses (not simulator ones), which SES's lists record. */
export interface LocalRecipientOutcomes {
  /** Hard-bounce (Permanent/General), as a mailbox that does not exist. */
  bounceRecipients?: RegExp;
  /** Delivered, then complain. */
  complaintRecipients?: RegExp;
}

const DEFAULT_ACCOUNT_REASONS: SuppressionReason[] = ['BOUNCE', 'COMPLAINT'];
const MAX_PAGE_SIZE = 1000;

export function parseReasons(value: unknown, field: string): SuppressionReason[] {
  if (!Array.isArray(value)) throw badRequest(`${field} must be a list of BOUNCE and COMPLAINT.`);
  for (const reason of value) {
    if (!(SUPPRESSION_REASONS as readonly unknown[]).includes(reason))
      throw badRequest(`${field} contains '${String(reason)}': use BOUNCE or COMPLAINT.`);
  }
  return [...new Set(value as SuppressionReason[])];
}

function parseScope(value: unknown, field: string): SuppressionScope | undefined {
  const scope = optString(value, field);
  if (scope !== undefined && !(SUPPRESSION_SCOPES as readonly string[]).includes(scope))
    throw badRequest(`${field} '${scope}' is invalid: use ACCOUNT or TENANT.`);
  return scope as SuppressionScope | undefined;
}

/** A configuration set's SuppressionOptions, checked (CreateConfigurationSet, PutConfigurationSetSuppressionOptions). */
export function checkSuppressionOptions(value: Json, field = 'SuppressionOptions'): Json {
  const out: Json = { ...value };
  if (value.SuppressedReasons !== undefined && value.SuppressedReasons !== null)
    out.SuppressedReasons = parseReasons(value.SuppressedReasons, `${field}.SuppressedReasons`);
  parseScope(value.SuppressionScope, `${field}.SuppressionScope`);
  return out;
}

/**
 * A tenant's SuppressionAttributes (CreateTenant, PutTenantSuppressionAttributes): scope and reasons
 * together, or neither (null: back to ACCOUNT scope with the account's settings).
 */
export function parseTenantSuppression(body: Json, field: string): SesTenant['suppression'] | null {
  const reasonsGiven = body.SuppressedReasons !== undefined && body.SuppressedReasons !== null;
  const scope = parseScope(body.SuppressionScope, `${field}SuppressionScope`);
  if (!reasonsGiven && scope === undefined) return null;
  if (!reasonsGiven || scope === undefined)
    throw badRequest(`${field}SuppressionScope and ${field}SuppressedReasons must be given together, or neither.`);
  return { scope, reasons: parseReasons(body.SuppressedReasons, `${field}SuppressedReasons`) };
}

/** The reason an outcome puts its address on a list: a hard bounce SES tried to deliver, or a real complaint. */
function reasonOf(outcome: RecipientOutcome): SuppressionReason | undefined {
  if (outcome === 'complaint') return 'COMPLAINT';
  const bounce = BOUNCE_OF[outcome];
  if (bounce?.bounceType === 'Permanent' && bounce.subType !== 'OnAccountSuppressionList' && bounce.subType !== 'OnTenantSuppressionList')
    return 'BOUNCE';
  return undefined;
}

function matches(re: RegExp | undefined, address: string): boolean {
  if (!re) return false;
  re.lastIndex = 0;
  return re.test(address);
}

/** SES's simulator addresses, and the emulator's own trigger addresses, which stand for them. */
const isSimulatorAddress = (address: string): boolean =>
  [SIMULATOR_DOMAIN, LOCAL_EVENTS_DOMAIN].includes(
    address
      .slice(address.lastIndexOf('@') + 1)
      .trim()
      .toLowerCase(),
  );
const epochSeconds = (iso: string): number => Date.parse(iso) / 1000;

function parseDate(value: string | null, field: string): number | undefined {
  if (value === null || value === '') return undefined;
  const ms = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : Date.parse(value);
  if (!Number.isFinite(ms)) throw badRequest(`${field} '${value}' is not a timestamp.`);
  return ms;
}

export class SuppressionList {
  constructor(
    private readonly store: SesStore,
    private readonly local: LocalRecipientOutcomes = {},
  ) {}

  // ---------------------------------------------------------------- settings

  private state(): SuppressionFile {
    return this.store.getSuppression() ?? { version: 1, accountReasons: [...DEFAULT_ACCOUNT_REASONS], account: [], tenants: {} };
  }

  /** GetAccount's SuppressionAttributes. */
  accountAttributes(): Json {
    return { SuppressedReasons: this.state().accountReasons };
  }

  /** PUT /v2/email/account/suppression. SuppressedReasons absent or [] turns the account-level list off. */
  putAccountAttributes(body: Json): OperationResult {
    const reasons =
      body.SuppressedReasons === undefined || body.SuppressedReasons === null
        ? []
        : parseReasons(body.SuppressedReasons, 'SuppressedReasons');
    this.store.putSuppression({ ...this.state(), accountReasons: reasons });
    return { body: {} };
  }

  /** POST /v2/email/tenant/suppression. */
  putTenantAttributes(body: Json): OperationResult {
    const tenant = this.requireTenant(reqString(body.TenantName, 'TenantName'));
    const suppression = parseTenantSuppression(body, '');
    const { suppression: _old, ...rest } = tenant;
    this.store.putTenant(suppression ? { ...rest, suppression } : rest);
    return { body: {} };
  }

  /** PUT /v2/email/configuration-sets/{name}/suppression-options: replaces the set's SuppressionOptions. */
  putConfigurationSetOptions(setName: string, body: Json): OperationResult {
    const configSet = this.store.getConfigSet(setName);
    if (!configSet) throw notFound(`Configuration set <${setName}> does not exist.`);
    const { SuppressedReasons, SuppressionScope, ValidationOptions } = body;
    const options = checkSuppressionOptions({
      SuppressedReasons: SuppressedReasons ?? [],
      ...(SuppressionScope ? { SuppressionScope } : {}),
      ...(ValidationOptions ? { ValidationOptions } : {}),
    });
    this.store.putConfigSet({ ...configSet, options: { ...configSet.options, SuppressionOptions: options } });
    return { body: {} };
  }

  /**
   * The policy of a send, in SES's order of precedence: the configuration set's SuppressionOptions
   * (SuppressedReasons, SuppressionScope), then the tenant's SuppressionAttributes, then the account.
   * A TENANT scope on a send that names no tenant uses the account list (the emulator's choice).
   */
  policyFor(configSet: ConfigurationSet | undefined, tenantName: string | null): SuppressionPolicy {
    const options = configSet?.options.SuppressionOptions;
    const setReasons =
      isObject(options) && Array.isArray(options.SuppressedReasons) ? (options.SuppressedReasons as SuppressionReason[]) : undefined;
    const setScope = isObject(options) ? (options.SuppressionScope as SuppressionScope | undefined) : undefined;
    const tenant = tenantName ? this.store.getTenant(tenantName) : undefined;
    const reasons = setReasons ?? tenant?.suppression?.reasons ?? this.state().accountReasons;
    const scope = setScope ?? tenant?.suppression?.scope ?? 'ACCOUNT';
    return { reasons, ...(scope === 'TENANT' && tenant ? { tenant } : {}) };
  }

  // ---------------------------------------------------------------- sends

  /**
   * Each recipient's outcome for a send under `policy`, decided before the mailbox simulator's: not sent
   * when its list holds it for one of the policy's reasons (a Bounce Permanent/OnAccountSuppressionList,
   * or OnTenantSuppressionList for a tenant's own list; a Complaint with complaintSubType
   * OnAccountSuppressionList when it is listed for COMPLAINT: the emulator's reading of
   * https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html), a hard
   * bounce or complaint for the local options' addresses, else undefined (the simulator decides).
   */
  outcomeOf(policy: SuppressionPolicy): (address: string) => RecipientOutcome | undefined {
    const listed = new Map(this.entries(policy.tenant).map((e) => [e.address.toLowerCase(), e]));
    return (address) => {
      const entry = listed.get(address.toLowerCase());
      if (entry && policy.reasons.includes(entry.reason)) {
        if (entry.reason === 'COMPLAINT') return 'complaint-suppressed';
        return policy.tenant ? 'tenant-suppressed' : 'suppressed';
      }
      if (isSimulatorAddress(address)) return undefined;
      if (matches(this.local.bounceRecipients, address)) return 'bounce';
      if (matches(this.local.complaintRecipients, address)) return 'complaint';
      return undefined;
    };
  }

  /**
   * After SES accepted a message: hard-bounced recipients go on the policy's list when BOUNCE is one
   * of its reasons, complaining ones when COMPLAINT is; simulator addresses never do.
   */
  record(
    policy: SuppressionPolicy,
    outcomes: ReadonlyMap<string, RecipientOutcome>,
    messageId: string,
    outbox: readonly OutboxEntry[],
    at: Date,
  ): void {
    const added: SuppressedEntry[] = [];
    for (const [address, outcome] of outcomes) {
      const reason = reasonOf(outcome);
      if (!reason || !policy.reasons.includes(reason) || isSimulatorAddress(address)) continue;
      const type = reason === 'BOUNCE' ? 'Bounce' : 'Complaint';
      const feedbackId = outbox.find((e) => e.type === type && e.recipients?.includes(address))?.feedbackId ?? sesId(at.getTime());
      added.push({ address, reason, lastUpdateTime: at.toISOString(), messageId, feedbackId });
    }
    if (added.length > 0) this.upsert(policy.tenant, added);
  }

  // ---------------------------------------------------------------- *SuppressedDestination*

  /** PUT /v2/email/suppression/addresses. */
  putDestination(body: Json): OperationResult {
    const address = reqString(body.EmailAddress, 'EmailAddress');
    if (!isValidAddress(address)) throw badRequest(`EmailAddress '${address}' is not a valid email address.`);
    const reason = reqString(body.Reason, 'Reason');
    if (!(SUPPRESSION_REASONS as readonly string[]).includes(reason))
      throw badRequest(`Reason '${reason}' is invalid: use BOUNCE or COMPLAINT.`);
    const tenant = this.optTenant(body.TenantName);
    this.upsert(tenant, [{ address, reason: reason as SuppressionReason, lastUpdateTime: new Date().toISOString() }]);
    return { body: {} };
  }

  /** GET /v2/email/suppression/addresses/{EmailAddress}?TenantName. */
  getDestination(address: string, tenantName: string | null): OperationResult {
    const tenant = this.optTenant(tenantName);
    const entry = this.require(tenant, address);
    return {
      body: {
        SuppressedDestination: {
          EmailAddress: entry.address,
          Reason: entry.reason,
          LastUpdateTime: epochSeconds(entry.lastUpdateTime),
          ...(entry.messageId ? { Attributes: { MessageId: entry.messageId, FeedbackId: entry.feedbackId } } : {}),
          ...(tenant ? { TenantName: tenant.name } : {}),
        },
      },
    };
  }

  /** DELETE /v2/email/suppression/addresses/{EmailAddress}?TenantName. */
  deleteDestination(address: string, tenantName: string | null): OperationResult {
    const tenant = this.optTenant(tenantName);
    this.require(tenant, address);
    this.replace(
      tenant,
      this.entries(tenant).filter((e) => e.address.toLowerCase() !== address.toLowerCase()),
    );
    return { body: {} };
  }

  /** GET /v2/email/suppression/addresses?Reason&StartDate&EndDate&NextToken&PageSize&TenantName: sorted by address. */
  listDestinations(query: URLSearchParams): OperationResult {
    const tenant = this.optTenant(query.get('TenantName'));
    const reasons = query.getAll('Reason');
    for (const r of reasons)
      if (!(SUPPRESSION_REASONS as readonly string[]).includes(r)) throw badRequest(`Reason '${r}' is invalid: use BOUNCE or COMPLAINT.`);
    const start = parseDate(query.get('StartDate'), 'StartDate');
    const end = parseDate(query.get('EndDate'), 'EndDate');
    const matching = this.entries(tenant)
      .filter((e) => reasons.length === 0 || reasons.includes(e.reason))
      .filter(
        (e) => (start === undefined || Date.parse(e.lastUpdateTime) >= start) && (end === undefined || Date.parse(e.lastUpdateTime) <= end),
      )
      .sort((a, b) => a.address.toLowerCase().localeCompare(b.address.toLowerCase()));
    const rawSize = query.get('PageSize');
    const pageSize = rawSize === null || rawSize === '' ? undefined : Number(rawSize);
    const token = query.get('NextToken') || undefined;
    if (token !== undefined) {
      const offset = Number(Buffer.from(token, 'base64').toString('utf8'));
      if (!Number.isInteger(offset) || offset < 0 || offset > matching.length)
        throw new SesError('InvalidNextTokenException', 'The NextToken is invalid.');
    }
    const { items, next } = page(matching, token, pageSize, MAX_PAGE_SIZE);
    return {
      body: {
        SuppressedDestinationSummaries: items.map((e) => ({
          EmailAddress: e.address,
          Reason: e.reason,
          LastUpdateTime: epochSeconds(e.lastUpdateTime),
        })),
        ...(next ? { NextToken: next } : {}),
      },
    };
  }

  // ---------------------------------------------------------------- storage

  private entries(tenant: SesTenant | undefined): SuppressedEntry[] {
    const state = this.state();
    return tenant ? (state.tenants[tenant.id] ?? []) : state.account;
  }

  private replace(tenant: SesTenant | undefined, entries: SuppressedEntry[]): void {
    const state = this.state();
    this.store.putSuppression(tenant ? { ...state, tenants: { ...state.tenants, [tenant.id]: entries } } : { ...state, account: entries });
  }

  /** Adds or updates addresses (matched without regard to case). */
  private upsert(tenant: SesTenant | undefined, added: SuppressedEntry[]): void {
    const keys = new Set(added.map((e) => e.address.toLowerCase()));
    this.replace(tenant, [...this.entries(tenant).filter((e) => !keys.has(e.address.toLowerCase())), ...added]);
  }

  private require(tenant: SesTenant | undefined, address: string): SuppressedEntry {
    const entry = this.entries(tenant).find((e) => e.address.toLowerCase() === address.toLowerCase());
    if (!entry)
      throw notFound(
        `Email address <${address}> is not on the suppression list${tenant ? ` of tenant <${tenant.name}>` : ' for your account'}.`,
      );
    return entry;
  }

  private optTenant(value: unknown): SesTenant | undefined {
    const name = optString(value, 'TenantName');
    return name ? this.requireTenant(name) : undefined;
  }

  private requireTenant(name: string): SesTenant {
    const tenant = this.store.getTenant(name);
    if (!tenant) throw notFound(`Tenant <${name}> does not exist.`);
    return tenant;
  }
}

/** CreateTenant's SuppressionAttributes object (optional), checked. */
export function tenantSuppressionOf(body: Json): SesTenant['suppression'] | null {
  const attrs = optObject(body.SuppressionAttributes, 'SuppressionAttributes');
  return attrs ? parseTenantSuppression(attrs, 'SuppressionAttributes.') : null;
}
