/**
 * The account's settings page (docs/dashboard.md, "Settings"): the dashboard's face of GET and PATCH
 * /account (docs/retention.md, docs/redaction.md, docs/deliverability.md "Bounce categories"). Every role
 * sees each retention window with its plan's default and maximum, whether sent content is kept, and which
 * bounce categories suppress the address; owners and admins also get the form that changes them (a select
 * of the plan's allowed values per window, content storage on/off, a checkbox per bounce category). The form calls the same
 * use case as PATCH /account; a developer is refused it (403, the role table's `account_settings`), a
 * viewer already by the session middleware. Bad input (a value outside the plan's bounds, a value that is
 * not a number, an unknown bounce category) is this page again, 400, with the problem and nothing changed.
 */
import { PLAN_RETENTION, RETENTION_KINDS, type RetentionKind } from '#shared/domain/accounts/retention';
import {
  BOUNCE_CATEGORIES,
  BOUNCE_CATEGORY_LABELS,
  DEFAULT_SUPPRESS_BOUNCE_CATEGORIES,
  isBounceCategory,
  type BounceCategory,
} from '#shared/domain/bounces/bounce-category';
import { assertCan, can, type DashboardRole } from '#shared/domain/dashboard/roles';
import { type AppError, ValidationError } from '#shared/domain/errors';
import {
  getAccountSettings,
  updateAccountSettings,
  type AccountSettings,
  type AccountSettingsChange,
} from '#shared/usecases/account/settings';
import type { DashboardServices } from '../services';
import { checkboxes, postForm, problemFlash, redirectTo, render, select, type PageContext } from './forms';
import type { PageRoutes } from './page-routes';
import { html, table, type Flash, type Html, type PageOptions } from './layout';

export const SETTINGS_PATH = '/dashboard/settings';

/** What each retention window covers, as the page names it. */
export const RETENTION_LABELS: Record<RetentionKind, string> = {
  emails_days: 'Sent emails',
  received_emails_days: 'Received emails',
  webhook_deliveries_days: 'Webhook deliveries',
  imports_days: 'Import reports',
};

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

/** The form's bounce categories: one checkbox each, and a hidden field saying the fieldset was on the form (none checked then means none suppresses). */
const SUPPRESS_FIELD = 'suppress_bounce_categories';
const SUPPRESS_SHOWN_FIELD = 'suppress_bounce_categories_shown';

/** A category as the page names it, the defaults marked. */
const categoryLabel = (category: BounceCategory) =>
  `${BOUNCE_CATEGORY_LABELS[category]}${DEFAULT_SUPPRESS_BOUNCE_CATEGORIES.includes(category) ? ' (default)' : ''}`;
const categoryList = (categories: readonly BounceCategory[]) =>
  categories.length ? categories.map((category) => BOUNCE_CATEGORY_LABELS[category]).join(', ') : 'none';
const sameCategories = (a: readonly BounceCategory[], b: readonly BounceCategory[]) =>
  a.length === b.length && a.every((category) => b.includes(category));

/**
 * The change the form asks for, against the current settings: only the windows and the content storage
 * whose value differs (an unchanged window keeps following its plan's default). A window that is not a
 * whole number, or a content storage other than on/off, is a 400 naming the field; the plan's bounds are
 * the use case's to check.
 */
export function settingsChangeFromForm(form: URLSearchParams, current: AccountSettings): AccountSettingsChange {
  const retention: Partial<Record<RetentionKind, number>> = {};
  for (const kind of RETENTION_KINDS) {
    const value = form.get(`retention.${kind}`)?.trim();
    if (value === undefined || value === '') continue;
    if (!/^\d{1,6}$/.test(value))
      throw new ValidationError(`retention.${kind} must be a number of days.`, {
        details: { fields: [{ field: `retention.${kind}`, message: 'must be a number of days' }] },
      });
    const count = Number(value);
    if (count !== current.retention[kind]) retention[kind] = count;
  }
  const change: AccountSettingsChange = Object.keys(retention).length ? { retention } : {};
  const content = form.get('store_content')?.trim();
  if (content !== undefined && content !== '') {
    if (content !== 'on' && content !== 'off')
      throw new ValidationError('store_content must be on or off.', {
        details: { fields: [{ field: 'store_content', message: 'must be on or off' }] },
      });
    if ((content === 'on') !== current.store_content) change.store_content = content === 'on';
  }
  if (form.get(SUPPRESS_SHOWN_FIELD) !== null) {
    const chosen = form.getAll(SUPPRESS_FIELD).map((value) => value.trim());
    const unknown = chosen.find((value) => !isBounceCategory(value));
    if (unknown !== undefined) {
      throw new ValidationError(`${SUPPRESS_FIELD} has an unknown category '${unknown}': use ${BOUNCE_CATEGORIES.join(', ')}.`, {
        details: { fields: [{ field: SUPPRESS_FIELD, message: 'unknown bounce category' }] },
      });
    }
    const categories = BOUNCE_CATEGORIES.filter((category) => chosen.includes(category));
    if (!sameCategories(categories, current.suppress_bounce_categories)) change.suppress_bounce_categories = categories;
  }
  return change;
}

/** What changed, in a sentence (the flash after saving). */
function changeText(change: AccountSettingsChange, settings: AccountSettings): string {
  const parts = RETENTION_KINDS.filter((kind) => change.retention?.[kind] !== undefined).map(
    (kind) => `${RETENTION_LABELS[kind]}: kept ${days(settings.retention[kind])}`,
  );
  if (change.store_content !== undefined) parts.push(settings.store_content ? 'sent content is kept' : 'sent content is no longer kept');
  if (change.suppress_bounce_categories !== undefined)
    parts.push(`Bounces that suppress the address: ${categoryList(settings.suppress_bounce_categories)}`);
  return parts.length ? `Settings saved. ${parts.join('; ')}.` : 'Nothing changed.';
}

/** The form that changes the settings (a select per retention window, content storage, a checkbox per bounce category), for the roles that may. */
function settingsForm(c: PageContext, settings: AccountSettings, role: DashboardRole): Html {
  const bounds = settings.retention_bounds;
  const choices = bounds.allowed_days.map((count) => ({
    value: String(count),
    label: `${days(count)}${count === bounds.default_days ? ' (plan default)' : ''}`,
  }));
  return can(role, 'account_settings')
    ? html`<section aria-labelledby="change-heading"><h2 id="change-heading">Change the settings</h2>${postForm(
        c,
        SETTINGS_PATH,
        html`<div class="fields">${RETENTION_KINDS.map((kind) => select(`${RETENTION_LABELS[kind]}: kept`, `retention.${kind}`, choices, String(settings.retention[kind])))}${select(
          'Keep sent content',
          'store_content',
          [
            { value: 'on', label: 'on: bodies, attachments and subject kept for the retention window' },
            { value: 'off', label: 'off: dropped once SES accepted the email' },
          ],
          settings.store_content ? 'on' : 'off',
        )}</div>${checkboxes(
          'Bounces that suppress the address',
          SUPPRESS_FIELD,
          BOUNCE_CATEGORIES,
          (category) => settings.suppress_bounce_categories.includes(category as BounceCategory),
          (category) => categoryLabel(category as BounceCategory),
        )}<input type="hidden" name="${SUPPRESS_SHOWN_FIELD}" value="1"><p><button type="submit">Save settings</button></p>`,
      )}<p class="hint">A retention change applies to data written after it; older data keeps the window it was written with.</p></section>`
    : html`<p class="muted">Your role (${role}) cannot change the account's settings: owners and admins can.</p>`;
}

/** The settings as they are (every role), then the form that changes them (settingsForm). */
function settingsPage(c: PageContext, options: { flash?: Flash; status?: PageOptions['status'] } = {}): Response {
  const user = c.get('session').user;
  const settings = getAccountSettings(c.get('principal'));
  const bounds = settings.retention_bounds;
  const plan = PLAN_RETENTION[settings.plan];
  const rows = RETENTION_KINDS.map(
    (kind) =>
      html`<tr><th scope="row">${RETENTION_LABELS[kind]}</th><td>${days(settings.retention[kind])}</td><td>${days(plan.defaultDays)}</td><td>${days(plan.maxDays)}</td></tr>`,
  );
  const form = settingsForm(c, settings, user.role);
  const body = html`<p>Plan <strong>${settings.plan}</strong>: each window is one of ${bounds.allowed_days.map(days).join(', ')}; the plan's default is ${days(bounds.default_days)}, its maximum ${days(bounds.max_days)}.</p>
<h2>Retention</h2>${table('How long each kind of data is kept', ['Data', 'Kept', 'Plan default', 'Plan maximum'], rows)}
<h2>Content storage</h2><p id="store-content">Sent content (bodies, attachments, subject): <strong>${settings.store_content ? 'kept' : 'not kept'}</strong>${settings.store_content ? " for the sent emails' retention window." : ': dropped once SES accepted each email.'}</p>
<h2>Bounce suppression</h2><p id="suppress-bounce-categories">A bounce of these categories puts the address on the suppression list: <strong>${categoryList(settings.suppress_bounce_categories)}</strong>. Complaints always do. The default is ${categoryList(DEFAULT_SUPPRESS_BOUNCE_CATEGORIES)}.</p>
${form}`;
  return render(c, {
    title: 'Settings',
    body,
    ...(options.flash ? { flash: options.flash } : {}),
    ...(options.status ? { status: options.status } : {}),
  });
}

export function addSettingsPages(routes: PageRoutes<DashboardServices>): void {
  const { services } = routes;

  routes.page('/settings', (c) => settingsPage(c));

  routes.action('/settings', async (c, form) => {
    // A developer may change the mail setup but not the account's settings: the role page (403), never the form's flash.
    assertCan(c.get('session').user.role, 'account_settings');
    const principal = c.get('principal');
    try {
      const change = settingsChangeFromForm(form, getAccountSettings(principal));
      const updated = await updateAccountSettings(services, principal, change);
      return redirectTo(c, SETTINGS_PATH, { kind: 'ok', text: changeText(change, updated) });
    } catch (error) {
      // Bad input: this page again with the problem and its status, nothing changed (problemFlash throws anything but a 4xx on).
      const flash = problemFlash(error);
      return settingsPage(c, { flash, status: (error as AppError).status as PageOptions['status'] });
    }
  });
}
