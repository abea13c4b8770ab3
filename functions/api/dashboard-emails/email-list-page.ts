/**
 * The emails list (newest first, search, pagination), the activity charts (./email-activity.ts) and the test
 * send's form (its action is the dashboard-send function's: functions/api/dashboard-send/test-send.ts). The
 * list is the listEmails use case (GET /emails): one page query of the account's (or a tenant's) index; a
 * search reads a bounded number of emails per page (./email-list-limits.ts) and says so on the page.
 */
import { listEmails } from '#shared/usecases/emails/list-emails';
import { FILTER_STATUSES, hasFilter, matchesEmail, type EmailFilter } from '../dashboard/pages/email-model';
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
} from '../dashboard/pages/forms';
import { badge, html, table, time, type Flash, type Html } from '../dashboard/pages/layout';
import { recentActivity } from './email-activity';
import { SEARCH_PAGE, SEARCH_READS } from './email-list-limits';
import type { DashboardEmailsServices } from './services';

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

function testEmailForm(c: PageContext, accountEmail: string): Html {
  return html`<section aria-labelledby="test-heading"><h2 id="test-heading">Send a test email</h2>
<p class="hint">From the sandbox sender to your account's own address (the sandbox may send only there), through the same send as POST /emails.</p>
${postForm(
  c,
  '/dashboard/emails/test',
  html`<div class="fields">${input('To', 'to', { type: 'email', value: accountEmail, required: true })}${input('Subject', 'subject', { value: 'Hello from the dashboard', required: true })}<div class="field"><button type="submit">Send test email</button></div></div>`,
)}</section>`;
}

/** The emails read for the page (with a problem: what was read before it), and with a search how many were scanned. */
interface EmailsRead {
  emails: PublicEmail[];
  next: string | null;
  scanned: number;
  problem: Flash | null;
}

/** One page of the list; with a filter, the matches among at most SEARCH_READS pages of SEARCH_PAGE emails from the cursor. */
async function readEmails(
  services: DashboardEmailsServices,
  c: PageContext,
  query: ListQuery,
  filter: EmailFilter,
  from: string | undefined,
): Promise<EmailsRead> {
  const principal = c.get('principal');
  let emails: PublicEmail[] = [];
  let next: string | null = null;
  let scanned = 0;
  let problem: Flash | null = null;
  try {
    if (!hasFilter(filter)) {
      const page = await listEmails(services, principal, { limit: LIST_PAGE_SIZE, cursor: from, tenant: query.tenant });
      emails = page.items;
      next = page.next_cursor;
    } else {
      let cursor = from;
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
  return { emails, next, scanned, problem };
}

export async function emailListPage(services: DashboardEmailsServices, c: PageContext): Promise<Response> {
  const query = listQuery(c);
  const state = pageState(c);
  const filter: EmailFilter = { recipient: query.recipient, subject: query.subject, status: query.status, tag: query.tag };
  const searching = hasFilter(filter);
  const { emails, next, scanned, problem } = await readEmails(services, c, query, filter, state.cursor);
  const activity: Html = !searching && !state.cursor && !problem ? await recentActivity(services, c, query.tenant) : html``;
  const params = { recipient: query.recipient, subject: query.subject, status: query.status, tag: query.tag, tenant: query.tenant };
  const note = searching
    ? html`<p class="hint" role="status">Searched ${scanned} emails${state.cursor ? ' from this point back' : ''}, newest first: ${emails.length} matched. A search reads at most ${SEARCH_READS * SEARCH_PAGE} emails per page; ${next ? '"Older" searches further back.' : 'that was the oldest.'}</p>`
    : '';
  const body = html`${searchForm(query)}${note}${table(searching ? 'Matching emails, newest first' : 'Emails, newest first', ['Subject', 'To', 'Status', 'Created', 'Tenant'], emailRows(emails), searching ? 'No email matched.' : 'No emails yet. Send a test email below.')}
${pager('/dashboard/emails', params, state, next)}
${testEmailForm(c, c.get('principal').account.email)}
${activity}`;
  return render(c, { title: 'Emails', body, ...(problem ? { flash: problem } : {}) });
}
