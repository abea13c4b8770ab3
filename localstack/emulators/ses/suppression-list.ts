/**
 * SES's suppression lists: the account-level list (on by default for BOUNCE and COMPLAINT) and one list
 * per tenant, which settings of a send decide which list applies and for which reasons, and the lists
 * themselves as the operations that manage them read and change them (operations/put-account-suppression-attributes.ts,
 * put-tenant-suppression-attributes.ts, put-configuration-set-suppression-options.ts, and put-, get-,
 * delete-suppressed-destination.ts, list-suppressed-destinations.ts). Throws SesError for client errors.
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
import { badRequest, notFound } from './errors';
import { sesId } from './ids';
import { BOUNCE_OF, LOCAL_EVENTS_DOMAIN, SIMULATOR_DOMAIN, type RecipientOutcome } from './simulator';
import type { SesStore } from './store';
import { requireTenant } from './tenants';
import { SUPPRESSION_REASONS, type SuppressedEntry, type SuppressionFile, type SuppressionReason } from './suppression-file';
import type { ConfigurationSet, OutboxEntry, SesTenant } from './types';
import { isObject, optObject, optString, type Json } from './validate';

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
export const MAX_PAGE_SIZE = 1000;

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

/** ListSuppressedDestinations' StartDate and EndDate: epoch seconds or a date string. */
export function parseDate(value: string | null, field: string): number | undefined {
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

  /** The lists and the account's reasons as stored, or SES's defaults (BOUNCE and COMPLAINT, empty lists). */
  settings(): SuppressionFile {
    return this.store.getSuppression() ?? { version: 1, accountReasons: [...DEFAULT_ACCOUNT_REASONS], account: [], tenants: {} };
  }

  /** GetAccount's SuppressionAttributes. */
  accountAttributes(): Json {
    return { SuppressedReasons: this.settings().accountReasons };
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
    const reasons = setReasons ?? tenant?.suppression?.reasons ?? this.settings().accountReasons;
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

  // ---------------------------------------------------------------- the lists (operations/*-suppressed-destination*.ts)

  /** The account's list, or the tenant's own. */
  entries(tenant: SesTenant | undefined): SuppressedEntry[] {
    const state = this.settings();
    return tenant ? (state.tenants[tenant.id] ?? []) : state.account;
  }

  replace(tenant: SesTenant | undefined, entries: SuppressedEntry[]): void {
    const state = this.settings();
    this.store.putSuppression(tenant ? { ...state, tenants: { ...state.tenants, [tenant.id]: entries } } : { ...state, account: entries });
  }

  /** Adds or updates addresses (matched without regard to case). */
  upsert(tenant: SesTenant | undefined, added: SuppressedEntry[]): void {
    const keys = new Set(added.map((e) => e.address.toLowerCase()));
    this.replace(tenant, [...this.entries(tenant).filter((e) => !keys.has(e.address.toLowerCase())), ...added]);
  }

  /** The address's entry (case-insensitive); 404 NotFoundException when the list does not hold it. */
  requireEntry(tenant: SesTenant | undefined, address: string): SuppressedEntry {
    const entry = this.entries(tenant).find((e) => e.address.toLowerCase() === address.toLowerCase());
    if (!entry)
      throw notFound(
        `Email address <${address}> is not on the suppression list${tenant ? ` of tenant <${tenant.name}>` : ' for your account'}.`,
      );
    return entry;
  }

  /** The tenant a TenantName names (it must exist), or none for the account's list. */
  optTenant(value: unknown): SesTenant | undefined {
    const name = optString(value, 'TenantName');
    return name ? requireTenant(this.store, name) : undefined;
  }
}

/** CreateTenant's SuppressionAttributes object (optional), checked. */
export function tenantSuppressionOf(body: Json): SesTenant['suppression'] | null {
  const attrs = optObject(body.SuppressionAttributes, 'SuppressionAttributes');
  return attrs ? parseTenantSuppression(attrs, 'SuppressionAttributes.') : null;
}
