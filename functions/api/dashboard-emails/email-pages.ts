/**
 * Emails: the list (newest first, search, pagination), activity charts, the test send's form (its action is
 * the dashboard-send function's: functions/api/dashboard-send/test-send.ts), and one email's page (timeline,
 * preview in a sandboxed frame, raw headers).
 *
 * The list is the listEmails use case (GET /emails): one page query of the account's (or a tenant's)
 * index, whatever the account holds. Recipient, subject, status and tag are not keys of that index, so a
 * search reads at most SEARCH_READS pages of SEARCH_PAGE emails from where it stands (500 emails), shows
 * the matches, and "Older" goes on from there: bounded work per page, stated on the page. The charts
 * count the CHART_SAMPLE most recent emails the same way (5 queries), per UTC day, and say so.
 */
import { RESPONSE_BODY_BUDGET_BYTES, textPayloadBytes } from '#shared/domain/lambda-payload';
import { BOUNCE_CATEGORY_LABELS } from '#shared/domain/bounces/bounce-category';
import { getEmailContent } from '#shared/usecases/emails/email-content';
import { listEmails } from '#shared/usecases/emails/list-emails';
import { barChart, rateChart } from '../dashboard/pages/charts';
import {
  dailyActivity,
  emailTimeline,
  FILTER_STATUSES,
  hasFilter,
  isInFlight,
  matchesEmail,
  type ActivitySample,
  type EmailFilter,
} from '../dashboard/pages/email-model';
import {
  problemFlash,
  input,
  LIST_PAGE_SIZE,
  pager,
  pageState,
  postForm,
  render,
  select,
  type PageContext,
  param,
} from '../dashboard/pages/forms';
import type { PageRoutes } from '../dashboard/pages/page-routes';
import type { DashboardEmailsServices } from './services';
import { badge, html, percent, table, time, type Flash, type Html } from '../dashboard/pages/layout';

export const SEARCH_PAGE = 100;
export const SEARCH_READS = 5;
export const CHART_SAMPLE = 500;
export const CHART_DAYS = 14;

type PublicEmail = Awaited<ReturnType<typeof listEmails>>['items'][number];

interface ListQuery extends EmailFilter {
  tenant?: string;
}

function listQuery(c: PageContext): ListQuery {
  const text = (name: string, max = 320) => {
    const value = c.req.query(name)?.trim();
    return value ? value.slice(0, max) : undefined;
  };
  const status = text('status');
  return {
    recipient: text('recipient'),
    subject: text('subject', 998),
    status: status && (FILTER_STATUSES as readonly string[]).includes(status) ? status : undefined,
    tag: text('tag', 512),
    tenant: text('tenant', 128),
  };
}

function searchForm(query: ListQuery): Html {
  return html`<form method="get" action="/dashboard/emails" role="search" aria-label="Search emails" class="card"><div class="fields">
${input('Recipient', 'recipient', { value: query.recipient, type: 'search' })}
${input('Subject', 'subject', { value: query.subject, type: 'search' })}
${select('Status', 'status', [{ value: '', label: 'Any status' }, ...FILTER_STATUSES.map((status) => ({ value: status, label: status }))], query.status ?? '')}
${input('Tag', 'tag', { value: query.tag, type: 'search', placeholder: 'name or name=value' })}
${input('Tenant', 'tenant', { value: query.tenant, type: 'search', placeholder: 'external id' })}
<div class="field"><button type="submit">Search</button></div></div></form>`;
}

function emailRows(emails: readonly PublicEmail[]): Html[] {
  return emails.map(
    (email) =>
      html`<tr><td><a href="/dashboard/emails/${email.id}">${email.subject || email.id}</a></td><td>${email.to.join(', ')}</td><td>${badge(email.status)}</td><td>${time(email.created_at)}</td><td>${email.tenant ?? ''}</td></tr>`,
  );
}

function activitySection(sample: ActivitySample): Html {
  const labels = sample.days.map((day) => day.day.slice(5));
  const basis = sample.truncated
    ? `The ${sample.emails} most recent emails, by UTC day of acceptance (days before the oldest of them are not shown, and its day may be partial).`
    : `All ${sample.emails} emails of the last ${CHART_DAYS} days at most, by UTC day of acceptance.`;
  const rates = ['delivery_rate', 'bounce_rate', 'complaint_rate'] as const;
  return html`<section aria-labelledby="activity-heading"><h2 id="activity-heading">Activity</h2><p class="hint">${basis} Rates are shares of the emails sent.</p>
<div class="charts"><figure>${barChart({
    id: 'chart-sends',
    title: 'Emails sent per day',
    desc: sample.days.map((day) => `${day.day}: ${day.sent} sent`).join('; ') || 'No emails.',
    labels,
    values: sample.days.map((day) => day.sent),
  })}<figcaption>Sends per day</figcaption></figure>
<figure>${rateChart({
    id: 'chart-rates',
    title: 'Delivery, bounce and complaint rates per day',
    desc:
      sample.days
        .map(
          (day) =>
            `${day.day}: delivered ${percent(day.delivery_rate)}, bounced ${percent(day.bounce_rate)}, complained ${percent(day.complaint_rate)}`,
        )
        .join('; ') || 'No emails.',
    labels,
    series: [
      { name: 'Delivery rate', values: sample.days.map((day) => day.delivery_rate) },
      { name: 'Bounce rate', values: sample.days.map((day) => day.bounce_rate) },
      { name: 'Complaint rate', values: sample.days.map((day) => day.complaint_rate) },
    ],
  })}<figcaption>Delivery, bounce and complaint rates per day</figcaption></figure></div>
<details><summary>Data table</summary>${table(
    'Activity per UTC day',
    [
      'Day',
      'Accepted',
      'Sent',
      'Delivered',
      'Bounced',
      'Complained',
      ...rates.map((rate) => rate.replace('_', ' ').replace(/^./, (ch) => ch.toUpperCase())),
    ],
    sample.days.map(
      (day) =>
        html`<tr><th scope="row">${day.day}</th><td class="num">${day.accepted}</td><td class="num">${day.sent}</td><td class="num">${day.delivered}</td><td class="num">${day.bounced}</td><td class="num">${day.complained}</td>${rates.map((rate) => html`<td class="num">${percent(day[rate])}</td>`)}</tr>`,
    ),
    'No emails yet.',
  )}</details></section>`;
}

function testEmailForm(c: PageContext, accountEmail: string): Html {
  return html`<section aria-labelledby="test-heading"><h2 id="test-heading">Send a test email</h2>
<p class="hint">From the sandbox sender to your account's own address (the sandbox may send only there), through the same send as POST /emails.</p>
${postForm(
  c,
  '/dashboard/emails/test',
  html`<div class="fields">${input('To', 'to', { type: 'email', value: accountEmail, required: true })}${input('Subject', 'subject', { value: 'Hello from the dashboard', required: true })}<div class="field"><button type="submit">Send test email</button></div></div>`,
)}</section>`;
}

export function addEmailPages(routes: PageRoutes<DashboardEmailsServices>): void {
  const { services } = routes;

  routes.page('/emails', async (c) => {
    const principal = c.get('principal');
    const query = listQuery(c);
    const state = pageState(c);
    const filter: EmailFilter = { recipient: query.recipient, subject: query.subject, status: query.status, tag: query.tag };
    const searching = hasFilter(filter);
    let emails: PublicEmail[] = [];
    let next: string | null = null;
    let scanned = 0;
    let problem: Flash | null = null;
    try {
      if (!searching) {
        const page = await listEmails(services, principal, { limit: LIST_PAGE_SIZE, cursor: state.cursor, tenant: query.tenant });
        emails = page.items;
        next = page.next_cursor;
      } else {
        let cursor = state.cursor;
        for (let read = 0; read < SEARCH_READS; read++) {
          const page = await listEmails(services, principal, { limit: SEARCH_PAGE, cursor, tenant: query.tenant });
          scanned += page.items.length;
          emails.push(...page.items.filter((email) => matchesEmail(email, filter)));
          next = page.next_cursor;
          cursor = next ?? undefined;
          if (!next || emails.length >= LIST_PAGE_SIZE) break;
        }
      }
    } catch (error) {
      problem = problemFlash(error);
    }

    let activity: Html = html``;
    if (!searching && !state.cursor && !problem) {
      // The service's clock (the local cloud can move it), as the use cases read it.
      const now = services.clock.now();
      const sample: PublicEmail[] = [];
      let cursor: string | undefined;
      let more = false;
      for (let read = 0; read < CHART_SAMPLE / SEARCH_PAGE; read++) {
        const page = await listEmails(services, principal, { limit: SEARCH_PAGE, cursor, tenant: query.tenant });
        sample.push(...page.items);
        more = page.next_cursor !== null;
        const oldest = page.items[page.items.length - 1];
        if (!more || (oldest && now.getTime() - Date.parse(oldest.created_at) > CHART_DAYS * 86_400_000)) break;
        cursor = page.next_cursor!;
      }
      activity = activitySection(dailyActivity(sample, now, CHART_DAYS, more));
    }

    const params = { recipient: query.recipient, subject: query.subject, status: query.status, tag: query.tag, tenant: query.tenant };
    const note = searching
      ? html`<p class="hint" role="status">Searched ${scanned} emails${state.cursor ? ' from this point back' : ''}, newest first: ${emails.length} matched. A search reads at most ${SEARCH_READS * SEARCH_PAGE} emails per page; ${next ? '"Older" searches further back.' : 'that was the oldest.'}</p>`
      : '';
    const body = html`${searchForm(query)}${note}${table(searching ? 'Matching emails, newest first' : 'Emails, newest first', ['Subject', 'To', 'Status', 'Created', 'Tenant'], emailRows(emails), searching ? 'No email matched.' : 'No emails yet. Send a test email below.')}
${pager('/dashboard/emails', params, state, next)}
${testEmailForm(c, principal.account.email)}
${activity}`;
    return render(c, { title: 'Emails', body, ...(problem ? { flash: problem } : {}) });
  });

  routes.page('/emails/:id', async (c) => {
    const content = await getEmailContent(services, c.get('principal'), param(c, 'id'));
    const { email } = content;
    const follow = isInFlight(email, services.clock.now()) && c.req.query('refresh') !== 'off';
    const entries = emailTimeline(email);
    const notKept = content.content === 'not_kept';
    const list = (values: string[]) => (values.length ? values.join(', ') : html`<span class="muted">—</span>`);
    const facts = html`<dl class="facts">
<dt>ID</dt><dd><code>${email.id}</code></dd>
<dt>From</dt><dd>${email.from}</dd>
<dt>To</dt><dd>${list(email.to)}</dd>
${email.cc.length ? html`<dt>Cc</dt><dd>${list(email.cc)}</dd>` : ''}${email.bcc.length ? html`<dt>Bcc</dt><dd>${list(email.bcc)}</dd>` : ''}${email.reply_to.length ? html`<dt>Reply-To</dt><dd>${list(email.reply_to)}</dd>` : ''}
<dt>Status</dt><dd>${badge(email.status)} <span class="muted">(last event: ${email.last_event.replace(/_/g, ' ')})</span></dd>
${email.bounce_category ? html`<dt>Bounce category</dt><dd data-bounce-category="${email.bounce_category}">${BOUNCE_CATEGORY_LABELS[email.bounce_category]}${email.bounce_type ? html` <span class="muted">(${email.bounce_type})</span>` : ''}</dd>` : ''}
<dt>Tags</dt><dd>${list(email.tags.map((tag) => `${tag.name}=${tag.value}`))}</dd>
${email.tenant ? html`<dt>Tenant</dt><dd>${email.tenant}</dd>` : ''}
${email.attachments.length ? html`<dt>Attachments</dt><dd>${list(email.attachments.map((attachment) => (notKept ? `${attachment.filename} (${attachment.size} bytes, content not kept)` : attachment.filename)))}</dd>` : ''}
</dl>`;
    const timeline = html`<section aria-labelledby="timeline-heading"><h2 id="timeline-heading">Timeline</h2>
${follow ? html`<p class="hint" role="status">This page refreshes every 2 seconds while the email is on its way. <a href="/dashboard/emails/${email.id}?refresh=off">Stop refreshing</a></p>` : ''}
<ol aria-label="Timeline" class="timeline">${entries.map(
      (entry) =>
        html`<li><strong>${entry.event.replace(/_/g, ' ')}</strong> ${entry.at ? html`— ${time(entry.at)}` : ''}${entry.detail ? html` <span class="muted">(${entry.detail})</span>` : ''}</li>`,
    )}</ol></section>`;
    // Content redaction (docs/redaction.md): a dropped content says so instead of a preview and headers.
    const redactionNote =
      content.content === 'until_sent'
        ? html`<p class="hint" role="status">Sent with store_content: false: the content is dropped once the email is sent.</p>`
        : '';
    const preview = notKept
      ? html`<section aria-labelledby="preview-heading"><h2 id="preview-heading">Preview</h2>
<p class="muted" data-content="not-kept">Content not kept: this email was sent with store_content: false, so its subject, bodies and attachments were dropped once sent. Its record (addresses, status, events, tags) stays for the retention window.</p></section>`
      : html`<section aria-labelledby="preview-heading"><h2 id="preview-heading">Preview</h2>${redactionNote}
${content.html !== null ? html`<iframe class="preview" sandbox title="Email preview" srcdoc="${content.html}"></iframe><p class="hint">Shown in a sandboxed frame: scripts, forms and remote images do not run or load.</p>` : html`<p class="muted">This email has no HTML part.</p>`}
${content.text !== null ? html`<details${content.html === null ? html` open` : ''}><summary>Text version</summary><pre>${content.text}</pre></details>` : ''}</section>`;
    const headers = notKept
      ? html``
      : html`<section aria-labelledby="headers-heading"><h2 id="headers-heading">Headers</h2>
<p class="hint">${content.source === 'raw' ? 'As the SMTP client wrote the message.' : 'As the service composes the message; the DKIM-Signature and List-Unsubscribe fields are added when it is sent.'}</p>
<pre>${content.headers}</pre></section>`;
    // A page is one Lambda answer (6 MB): a section too large for its share is replaced by a notice.
    const shown = [withinSectionBudget(preview, 'preview-heading', 'Preview'), withinSectionBudget(headers, 'headers-heading', 'Headers')];
    return render(c, {
      title: email.subject || (notKept ? `${email.id} (content not kept)` : email.id),
      lead: html`<p><a href="/dashboard/emails">← All emails</a></p>`,
      body: html`${facts}${timeline}${shown}`,
      ...(follow ? { refresh: 2 } : {}),
    });
  });
}

/**
 * What one section of an email's page may take as Lambda counts it (escaped: ../../../shared/domain/lambda-payload.ts):
 * the preview and the headers together stay under RESPONSE_BODY_BUDGET_BYTES with room for the rest of the page.
 */
export const EMAIL_SECTION_BUDGET_BYTES = Math.floor(RESPONSE_BODY_BUDGET_BYTES * 0.4);

/** `section` as it is, or, over EMAIL_SECTION_BUDGET_BYTES, a notice in its place saying it was left out and how large it is. */
function withinSectionBudget(section: Html, headingId: string, heading: string): Html {
  const bytes = textPayloadBytes(String(section));
  if (bytes <= EMAIL_SECTION_BUDGET_BYTES) return section;
  const megabytes = (bytes / 1024 / 1024).toFixed(1);
  return html`<section aria-labelledby="${headingId}" data-truncated="true"><h2 id="${headingId}">${heading}</h2>
<p class="hint" role="status">Too large to show here: ${megabytes} MB on the page, more than a dashboard page can carry (a page is one Lambda response, at most 6 MB).</p></section>`;
}
