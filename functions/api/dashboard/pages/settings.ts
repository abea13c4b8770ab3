/**
 * The account's settings page (docs/dashboard.md, "Settings"): the dashboard's face of GET and PATCH
 * /account (docs/retention.md, docs/redaction.md). Every role sees each retention window with its plan's
 * default and maximum, and whether sent content is kept; owners and admins also get the form that changes
 * them (a select of the plan's allowed values per window, content storage on/off). The form calls the same
 * use case as PATCH /account; a developer is refused it (403, the role table's `account_settings`), a
 * viewer already by the session middleware. Bad input (a value outside the plan's bounds, a value that is
 * not a number) is this page again, 400, with the problem and nothing changed.
 */
import { PLAN_RETENTION, RETENTION_KINDS, type RetentionKind } from '../../../../shared/domain/accounts/retention';
import { assertCan, can } from '../../../../shared/domain/dashboard/roles';
import { AppError, ValidationError } from '../../../../shared/domain/errors';
import { getAccountSettings, updateAccountSettings, type AccountSettings, type AccountSettingsChange } from '../../../../shared/usecases/account/settings';
import type { DashboardServices } from '../services';
import { postForm, problemFlash, redirectTo, render, select, type PageContext } from './forms';
import type { PageRoutes } from './page-routes';
import { html, table, type Flash, type PageOptions } from './layout';

export const SETTINGS_PATH = '/dashboard/settings';

/** What each retention window covers, as the page names it. */
export const RETENTION_LABELS: Record<RetentionKind, string> = {
  emails_days: 'Sent emails',
  received_emails_days: 'Received emails',
  webhook_deliveries_days: 'Webhook deliveries',
  imports_days: 'Import reports',
};

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

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
    if (!/^\d{1,6}$/.test(value)) throw new ValidationError(`retention.${kind} must be a number of days.`, { details: { fields: [{ field: `retention.${kind}`, message: 'must be a number of days' }] } });
    const count = Number(value);
    if (count !== current.retention[kind]) retention[kind] = count;
  }
  const change: AccountSettingsChange = Object.keys(retention).length ? { retention } : {};
  const content = form.get('store_content')?.trim();
  if (content !== undefined && content !== '') {
    if (content !== 'on' && content !== 'off') throw new ValidationError('store_content must be on or off.', { details: { fields: [{ field: 'store_content', message: 'must be on or off' }] } });
    if ((content === 'on') !== current.store_content) change.store_content = content === 'on';
  }
  return change;
}

/** What changed, in a sentence (the flash after saving). */
function changeText(change: AccountSettingsChange, settings: AccountSettings): string {
  const parts = RETENTION_KINDS.filter((kind) => change.retention?.[kind] !== undefined).map((kind) => `${RETENTION_LABELS[kind]}: kept ${days(settings.retention[kind])}`);
  if (change.store_content !== undefined) parts.push(settings.store_content ? 'sent content is kept' : 'sent content is no longer kept');
  return parts.length ? `Settings saved. ${parts.join('; ')}.` : 'Nothing changed.';
}

export function addSettingsPages(routes: PageRoutes<DashboardServices>): void {
  const { services } = routes;

  function settingsPage(c: PageContext, options: { flash?: Flash; status?: PageOptions['status'] } = {}): Response {
    const user = c.get('session').user;
    const settings = getAccountSettings(c.get('principal'));
    const bounds = settings.retention_bounds;
    const plan = PLAN_RETENTION[settings.plan];
    const rows = RETENTION_KINDS.map(
      (kind) => html`<tr><th scope="row">${RETENTION_LABELS[kind]}</th><td>${days(settings.retention[kind])}</td><td>${days(plan.defaultDays)}</td><td>${days(plan.maxDays)}</td></tr>`,
    );
    const choices = bounds.allowed_days.map((count) => ({ value: String(count), label: `${days(count)}${count === bounds.default_days ? ' (plan default)' : ''}` }));
    const form = can(user.role, 'account_settings')
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
          )}</div><p><button type="submit">Save settings</button></p>`,
        )}<p class="hint">A retention change applies to data written after it; older data keeps the window it was written with.</p></section>`
      : html`<p class="muted">Your role (${user.role}) cannot change the account's settings: owners and admins can.</p>`;
    const body = html`<p>Plan <strong>${settings.plan}</strong>: each window is one of ${bounds.allowed_days.map(days).join(', ')}; the plan's default is ${days(bounds.default_days)}, its maximum ${days(bounds.max_days)}.</p>
<h2>Retention</h2>${table('How long each kind of data is kept', ['Data', 'Kept', 'Plan default', 'Plan maximum'], rows)}
<h2>Content storage</h2><p id="store-content">Sent content (bodies, attachments, subject): <strong>${settings.store_content ? 'kept' : 'not kept'}</strong>${settings.store_content ? ' for the sent emails\' retention window.' : ': dropped once SES accepted each email.'}</p>
${form}`;
    return render(c, { title: 'Settings', body, ...(options.flash ? { flash: options.flash } : {}), ...(options.status ? { status: options.status } : {}) });
  }

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
