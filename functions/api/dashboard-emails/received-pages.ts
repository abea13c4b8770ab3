/**
 * Received (inbound) email: the list, newest first, filtered by recipient or sender, and one message
 * (its authentication results, bodies in a sandboxed frame, headers, attachments). Use cases:
 * listReceivedEmails, getReceivedEmail (the received-emails group's).
 */
import { listReceivedEmailsQuerySchema } from '#shared/domain/inbound/schemas';
import { parseWith } from '#shared/doors/http/request-validation';
import { getReceivedEmail, listReceivedEmails } from '#shared/usecases/inbound/received-emails';
import { problemFlash, input, LIST_PAGE_SIZE, pager, pageState, render, param } from '../dashboard/pages/forms';
import type { PageRoutes } from '../dashboard/pages/page-routes';
import type { DashboardEmailsServices } from './services';
import { badge, html, json, table, time, type Flash } from '../dashboard/pages/layout';

type ListItem = Awaited<ReturnType<typeof listReceivedEmails>>['items'][number];

export function addReceivedPages(routes: PageRoutes<DashboardEmailsServices>): void {
  const { services } = routes;

  routes.page('/received', async (c) => {
    const state = pageState(c);
    const to = c.req.query('to')?.trim() || undefined;
    const from = c.req.query('from')?.trim() || undefined;
    let items: ListItem[] = [];
    let next: string | null = null;
    let problem: Flash | null = null;
    try {
      const query = parseWith(
        listReceivedEmailsQuerySchema,
        { to, from, limit: String(LIST_PAGE_SIZE), ...(state.cursor ? { cursor: state.cursor } : {}) },
        'query',
      );
      const page = await listReceivedEmails(services, c.get('principal'), query);
      items = page.items;
      next = page.next_cursor;
    } catch (error) {
      problem = problemFlash(error);
    }
    const rows = items.map(
      (email) =>
        html`<tr><td><a href="/dashboard/received/${email.id}">${email.subject || email.id}</a></td><td>${email.from}</td><td>${email.to.join(', ')}</td><td>${badge(email.spam_status)}</td><td>${time(email.received_at)}</td></tr>`,
    );
    const body = html`<form method="get" action="/dashboard/received" role="search" aria-label="Search received email" class="card"><div class="fields">${input('To', 'to', { type: 'search', value: to })}${input('From', 'from', { type: 'search', value: from })}<div class="field"><button type="submit">Search</button></div></div></form>
${table('Received email, newest first', ['Subject', 'From', 'To', 'Spam check', 'Received'], rows, 'No received email. Enable inbound on a domain to receive mail (docs/inbound.md).')}
${pager('/dashboard/received', { to, from }, state, next)}`;
    return render(c, { title: 'Received', body, ...(problem ? { flash: problem } : {}) });
  });

  routes.page('/received/:id', async (c) => {
    const email = await getReceivedEmail(services, c.get('principal'), param(c, 'id'));
    const body = html`<dl class="facts"><dt>From</dt><dd>${email.from}</dd><dt>To</dt><dd>${email.to.join(', ')}</dd>${email.cc.length ? html`<dt>Cc</dt><dd>${email.cc.join(', ')}</dd>` : ''}<dt>Received</dt><dd>${time(email.received_at)}</dd><dt>Envelope</dt><dd>MAIL FROM ${email.mail_from ?? '<>'}; RCPT TO ${email.rcpt_to.join(', ')}</dd><dt>Spam check</dt><dd>${badge(email.spam_status)}</dd><dt>Size</dt><dd>${email.size} bytes</dd></dl>
<section aria-labelledby="auth-heading"><h2 id="auth-heading">Authentication</h2><pre>${json(email.authentication)}</pre></section>
${email.content === 'not_kept' ? contentNotKept(email.attachment_count) : message(email)}`;
    return render(c, {
      title: email.subject || (email.content === 'not_kept' ? `${email.id} (content not kept)` : email.id),
      lead: html`<p><a href="/dashboard/received">← All received email</a></p>`,
      body,
    });
  });
}

type ReceivedView = Awaited<ReturnType<typeof getReceivedEmail>>;

/** A received email's message: the preview, text, attachments, raw download and headers. */
function message(email: ReceivedView) {
  return html`<section aria-labelledby="preview-heading"><h2 id="preview-heading">Message</h2>
${email.html !== null ? html`<iframe class="preview" sandbox title="Email preview" srcdoc="${email.html}"></iframe>` : email.html_url ? html`<p>The HTML body is too large to preview: <a href="${email.html_url}" download>download its source</a> (a file, never opened as a page; link valid for an hour).</p>` : ''}
${email.text !== null ? html`<details${email.html === null ? html` open` : ''}><summary>Text version</summary><pre>${email.text}</pre></details>` : email.text_url ? html`<p>The text version is too large to show: <a href="${email.text_url}" download>download it</a> (link valid for an hour).</p>` : ''}
${email.attachments.length ? html`<h3>Attachments</h3><ul>${email.attachments.map((attachment) => html`<li>${attachment.filename ?? '(no name)'} (${attachment.content_type}, ${attachment.size} bytes)${attachment.download_url ? html` <a href="${attachment.download_url}">download</a>` : ''}</li>`)}</ul>` : ''}
${email.raw ? html`<p><a href="${email.raw.download_url}">Download the raw message</a> (link valid for an hour).</p>` : ''}</section>
<section aria-labelledby="headers-heading"><h2 id="headers-heading">Headers</h2><pre>${email.headers.map((header) => `${header.name}: ${header.value}`).join('\n')}</pre></section>`;
}

/** Mail of a domain that keeps no content (docs/redaction.md): what the page says instead of the message. */
function contentNotKept(attachmentCount: number) {
  return html`<section aria-labelledby="preview-heading"><h2 id="preview-heading">Message</h2>
<p class="muted" data-content="not-kept">Content not kept: this message arrived at a domain with inbound_store_content: false, so its subject, bodies, headers${attachmentCount ? ` and ${attachmentCount} attachment${attachmentCount === 1 ? '' : 's'}` : ''} were not stored and the raw message was deleted once recorded. The metadata above (envelope, addresses, authentication, size) stays for the retention window.</p></section>`;
}
