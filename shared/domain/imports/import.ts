/**
 * One import (a chain of `POST /migrations` requests): its head record and where it stands. The head
 * says what is imported (provider, region, resources, dry run) and where the next request resumes
 * (`progress`: which resource, which suppression list, which provider page and how far into it). The
 * client's cursor names the import and the number of requests done (`<mig id>.<requests>`): a cursor
 * from an older request is stale, and two requests holding the same cursor cannot both work it (the
 * store's claim is a conditional write).
 */
import { newId } from '../ids';
import {
  addCounts,
  emptyPart,
  type CountTotals,
  type ImportStatus,
  type ReportPart,
  type SuppressionCounts,
  type TemplateTotals,
} from './report';
import type { ImportResource, ProviderName, ProviderRegion, SuppressionListRef } from './source';

export interface ImportProgress {
  /** Index into the import's resources of the one being worked; resources.length when all are done. */
  resource: number;
  /** Suppressions: the lists to walk (read once, at the first suppressions page) and the index of the current one. */
  lists: SuppressionListRef[] | null;
  list: number;
  /** The provider page to read next (null: the first page of the current resource or list). */
  page: string | null;
  /** Items of that page already worked (a request stopped inside a page: rate limit, time budget). */
  offset: number;
}

export interface ImportHead {
  id: string;
  account_id: string;
  provider: ProviderName;
  region: ProviderRegion;
  resources: ImportResource[];
  dry_run: boolean;
  status: ImportStatus;
  has_more: boolean;
  /** Requests that finished working (the cursor's number). */
  requests: number;
  /** Report parts written so far (each a few items of one page; merged in order by GET). */
  parts: number;
  progress: ImportProgress;
  /** Totals of every part so far (what GET /migrations lists). */
  totals: ImportTotals;
  retry_after_seconds: number | null;
  created_at: string;
  updated_at: string;
}

export interface ImportTotals {
  domains: CountTotals;
  webhooks: CountTotals;
  templates: TemplateTotals;
  suppressions: SuppressionCounts;
}

/** The totals of a part alone (a new import's). */
export function totalsOfPart(part: ReportPart): ImportTotals {
  return {
    domains: part.domains.totals,
    webhooks: part.webhooks.totals,
    templates: part.templates.totals,
    suppressions: part.suppressions.totals,
  };
}

export function emptyTotals(): ImportTotals {
  return totalsOfPart(emptyPart());
}

/** `totals` with one more part's counts. */
export function addPartTotals(totals: ImportTotals, part: ReportPart): ImportTotals {
  const add = totalsOfPart(part);
  return {
    domains: addCounts(totals.domains, add.domains),
    webhooks: addCounts(totals.webhooks, add.webhooks),
    templates: addCounts(totals.templates, add.templates),
    suppressions: addCounts(totals.suppressions, add.suppressions),
  };
}

export const INITIAL_PROGRESS: ImportProgress = { resource: 0, lists: null, list: 0, page: null, offset: 0 };

export function newImportId(nowMs: number): string {
  return newId('mig', nowMs);
}

/** A new import's head: nothing done yet, at the start of its first resource. */
export function newImportHead(
  fields: Pick<ImportHead, 'account_id' | 'provider' | 'region' | 'resources' | 'dry_run'>,
  nowMs: number,
  id: string = newImportId(nowMs),
): ImportHead {
  const at = new Date(nowMs).toISOString();
  return {
    id,
    ...fields,
    status: 'in_progress',
    has_more: true,
    requests: 0,
    parts: 0,
    progress: INITIAL_PROGRESS,
    totals: emptyTotals(),
    retry_after_seconds: null,
    created_at: at,
    updated_at: at,
  };
}

/** The cursor a client sends to continue: the import and how many requests it has seen finish. */
export function cursorOf(head: Pick<ImportHead, 'id' | 'requests'>): string {
  return `${head.id}.${head.requests}`;
}

export function parseCursor(cursor: string): { id: string; requests: number } | null {
  const match = /^(mig_[0-9A-HJKMNP-TV-Z]{26})\.(\d{1,6})$/.exec(cursor);
  return match ? { id: match[1]!, requests: Number(match[2]) } : null;
}
