/**
 * Webhooks of an import (spec rule 6): the provider's endpoints are read whole first (accounts have a
 * handful; Mailgun spreads them over domains), merged into one endpoint per distinct URL with the
 * provider events mapped to ours, then created through createWebhook, disabled, with a new signing
 * secret shown once in this request's answer (never stored in the report). An endpoint whose URL the
 * account already has is skipped (spec rule 7). Reading all pages is one stretch: if the provider
 * rate-limits it, the next request reads them again from the first (nothing was written yet).
 */
import { AppError } from '../../domain/errors';
import { countItem, emptyPart, type ReportPart, type WebhookItem } from '../../domain/imports/report';
import { PROVIDER_LABELS, type SourceWebhook } from '../../domain/imports/source';
import { ProviderError } from '../../ports/provider-source';
import { webhooksByUrl, type MergedWebhook } from '../../domain/imports/webhook-events';
import { createWebhook } from '../webhooks/webhooks';
import { nextResource, type StretchContext, type StretchResult } from './stretch';

async function readAll(ctx: StretchContext): Promise<SourceWebhook[]> {
  const all: SourceWebhook[] = [];
  let token: string | null = null;
  do {
    const page = await ctx.source.listWebhooks(token);
    all.push(...page.items);
    token = page.next;
  } while (token !== null);
  return all;
}

/**
 * One merged endpoint's item: skipped when the account has its URL, failed when none of its events has an
 * equivalent, else created disabled (its secret kept for this request's answer), or what a dry run would do.
 */
async function importEndpoint(ctx: StretchContext, merged: MergedWebhook, existing: Set<string>): Promise<WebhookItem> {
  const { deps, principal, head } = ctx;
  const base: WebhookItem = {
    url: merged.url,
    status: 'failed',
    webhook_id: null,
    enabled: false,
    secret: null,
    events: merged.events,
    unmapped_events: merged.unmapped_events,
    message: null,
  };
  if (existing.has(merged.url)) return { ...base, status: 'skipped', message: 'An endpoint with this URL already exists.' };
  if (merged.events.length === 0) {
    // Only unmapped events, or none at all (a Postmark webhook with every trigger off): nothing to create.
    const message =
      merged.unmapped_events.length > 0
        ? `None of its events (${merged.unmapped_events.join(', ')}) has an equivalent here.`
        : `It receives no events at ${PROVIDER_LABELS[head.provider]} (every event is off there): there is nothing to create.`;
    return { ...base, message };
  }
  if (head.dry_run) return { ...base, status: 'would_import' };
  try {
    const { webhook, secret } = await createWebhook(
      deps,
      principal,
      { url: merged.url, events: merged.events as never },
      { enabled: false },
    );
    existing.add(merged.url);
    ctx.secrets.set(webhook.id, secret);
    return { ...base, status: 'imported', webhook_id: webhook.id };
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return { ...base, message: error.message };
  }
}

/** The item in the report: listed, counted, and what needs the team's attention. */
function report(part: ReportPart, item: WebhookItem): void {
  part.webhooks.items.push(item);
  countItem(part.webhooks.totals, item.status);
  if (item.status === 'imported') {
    part.attention.push({
      resource: 'webhooks',
      item: item.url,
      message: 'Imported disabled: verify our signature on this endpoint, then enable it (PATCH /webhooks/{id} {enabled: true}).',
    });
  }
  if (item.unmapped_events.length > 0) {
    part.attention.push({ resource: 'webhooks', item: item.url, message: `No equivalent for: ${item.unmapped_events.join(', ')}.` });
  }
}

export async function importWebhooksStretch(ctx: StretchContext): Promise<StretchResult> {
  const { deps, principal, head } = ctx;
  const part = emptyPart();
  let sources: SourceWebhook[];
  try {
    sources = await readAll(ctx);
  } catch (error) {
    if (error instanceof ProviderError) return { part, progress: head.progress, stop: error };
    throw error;
  }
  const existing = new Set((await deps.webhooks.listForAccount(principal.account.id)).map((endpoint) => endpoint.url));
  for (const merged of webhooksByUrl(head.provider, sources)) report(part, await importEndpoint(ctx, merged, existing));
  return { part, progress: nextResource(head.progress) };
}
