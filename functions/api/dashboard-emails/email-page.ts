/**
 * One email's page: its facts, its timeline (refreshing every 2 seconds while the email is on its way), the
 * preview in a sandboxed frame and the raw headers; content dropped by redaction (docs/redaction.md) says so
 * instead, and a section too large for a Lambda answer is replaced by a notice.
 */
import { RESPONSE_BODY_BUDGET_BYTES, textPayloadBytes } from '#shared/domain/lambda-payload';
import { BOUNCE_CATEGORY_LABELS } from '#shared/domain/bounces/bounce-category';
import { getEmailContent, type EmailContent } from '#shared/usecases/emails/email-content';
import { emailTimeline, isInFlight } from '../dashboard/pages/email-model';
import { render, type PageContext, param } from '../dashboard/pages/forms';
import { badge, html, time, type Html } from '../dashboard/pages/layout';
import type { DashboardEmailsServices } from './services';

type PublicEmail = EmailContent['email'];

function emailFacts(email: PublicEmail, notKept: boolean): Html {
  const list = (values: string[]) => (values.length ? values.join(', ') : html`<span class="muted">—</span>`);
  return html`<dl class="facts">
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
}

function timelineSection(email: PublicEmail, follow: boolean): Html {
  return html`<section aria-labelledby="timeline-heading"><h2 id="timeline-heading">Timeline</h2>
${follow ? html`<p class="hint" role="status">This page refreshes every 2 seconds while the email is on its way. <a href="/dashboard/emails/${email.id}?refresh=off">Stop refreshing</a></p>` : ''}
<ol aria-label="Timeline" class="timeline">${emailTimeline(email).map(
    (entry) =>
      html`<li><strong>${entry.event.replace(/_/g, ' ')}</strong> ${entry.at ? html`— ${time(entry.at)}` : ''}${entry.detail ? html` <span class="muted">(${entry.detail})</span>` : ''}</li>`,
  )}</ol></section>`;
}

/** The HTML part in a sandboxed frame and the text part; content redaction (docs/redaction.md): a dropped content says so instead. */
function previewSection(content: EmailContent, notKept: boolean): Html {
  const redactionNote =
    content.content === 'until_sent'
      ? html`<p class="hint" role="status">Sent with store_content: false: the content is dropped once the email is sent.</p>`
      : '';
  return notKept
    ? html`<section aria-labelledby="preview-heading"><h2 id="preview-heading">Preview</h2>
<p class="muted" data-content="not-kept">Content not kept: this email was sent with store_content: false, so its subject, bodies and attachments were dropped once sent. Its record (addresses, status, events, tags) stays for the retention window.</p></section>`
    : html`<section aria-labelledby="preview-heading"><h2 id="preview-heading">Preview</h2>${redactionNote}
${content.html !== null ? html`<iframe class="preview" sandbox title="Email preview" srcdoc="${content.html}"></iframe><p class="hint">Shown in a sandboxed frame: scripts, forms and remote images do not run or load.</p>` : html`<p class="muted">This email has no HTML part.</p>`}
${content.text !== null ? html`<details${content.html === null ? html` open` : ''}><summary>Text version</summary><pre>${content.text}</pre></details>` : ''}</section>`;
}

function headersSection(content: EmailContent, notKept: boolean): Html {
  return notKept
    ? html``
    : html`<section aria-labelledby="headers-heading"><h2 id="headers-heading">Headers</h2>
<p class="hint">${content.source === 'raw' ? 'As the SMTP client wrote the message.' : 'As the service composes the message; the DKIM-Signature and List-Unsubscribe fields are added when it is sent.'}</p>
<pre>${content.headers}</pre></section>`;
}

export async function emailPage(services: DashboardEmailsServices, c: PageContext): Promise<Response> {
  const content = await getEmailContent(services, c.get('principal'), param(c, 'id'));
  const { email } = content;
  const follow = isInFlight(email, services.clock.now()) && c.req.query('refresh') !== 'off';
  const notKept = content.content === 'not_kept';
  const preview = previewSection(content, notKept);
  const headers = headersSection(content, notKept);
  // A page is one Lambda answer (6 MB): a section too large for its share is replaced by a notice.
  const shown = [withinSectionBudget(preview, 'preview-heading', 'Preview'), withinSectionBudget(headers, 'headers-heading', 'Headers')];
  return render(c, {
    title: email.subject || (notKept ? `${email.id} (content not kept)` : email.id),
    lead: html`<p><a href="/dashboard/emails">← All emails</a></p>`,
    body: html`${emailFacts(email, notKept)}${timelineSection(email, follow)}${shown}`,
    ...(follow ? { refresh: 2 } : {}),
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
