/**
 * A small self-contained HTML page (no external assets, no scripts) listing captured messages,
 * newest first, each with its raw source in a <details> element. All text is HTML-escaped.
 */
import { escapeHtml } from './html-escape';
import type { LocalSesMessage } from './types';

/** Messages shown on the page; the JSON endpoint lists all. */
export const MAILBOX_PAGE_LIMIT = 200;
/** Raw source shown per message; longer sources are cut (the JSON endpoint has them whole). */
export const RAW_DISPLAY_LIMIT = 256 * 1024;

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5rem;color:#1d2430;background:#fafbfc}
h1{font-size:1.3rem;margin:0 0 .25rem}
p.note{color:#5b6573;margin:.25rem 0 1rem}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid #e3e7ec;padding:.45rem .6rem;text-align:left;vertical-align:top;font-size:.9rem}
th{background:#f0f3f6;font-weight:600}
td.time{white-space:nowrap;color:#5b6573}
span.ev{display:inline-block;border-radius:3px;padding:0 .35rem;margin:0 .2rem .2rem 0;font-size:.8rem;background:#e8eef6}
span.ev-Delivery{background:#dcf3e3}span.ev-Bounce{background:#fbe0df}span.ev-Complaint{background:#fdebd3}
details summary{cursor:pointer;color:#2456a6}
pre{white-space:pre-wrap;word-break:break-all;background:#f5f7f9;border:1px solid #e3e7ec;padding:.5rem;max-height:40rem;overflow:auto;font-size:.8rem}
code{font-size:.8rem}
`;

function row(m: LocalSesMessage): string {
  const events = m.events.length
    ? m.events.map((e) => `<span class="ev ev-${escapeHtml(e.type)}" title="${escapeHtml(e.at)}">${escapeHtml(e.type)}</span>`).join('')
    : '<span class="none">none</span>';
  const tags = Object.entries(m.tags)
    .map(([k, v]) => `${escapeHtml(k)}=${escapeHtml(v)}`)
    .join(', ');
  const raw =
    m.raw.length > RAW_DISPLAY_LIMIT
      ? `${m.raw.slice(0, RAW_DISPLAY_LIMIT)}\n[... ${m.raw.length - RAW_DISPLAY_LIMIT} more characters]`
      : m.raw;
  return `<tr>
<td class="time">${escapeHtml(m.received_at)}</td>
<td>${escapeHtml(m.from)}</td>
<td>${m.to.map(escapeHtml).join('<br>')}</td>
<td><strong>${escapeHtml(m.subject || '(no subject)')}</strong>
<div><code>${escapeHtml(m.id)}</code>${m.configuration_set ? ` &middot; set <code>${escapeHtml(m.configuration_set)}</code>` : ''}${m.tenant_name ? ` &middot; tenant <code>${escapeHtml(m.tenant_name)}</code>` : ''}${tags ? ` &middot; ${tags}` : ''}</div>
<details><summary>Raw source (${m.raw_base64.length > 0 ? Buffer.byteLength(m.raw_base64, 'base64') : 0} bytes)</summary><pre>${escapeHtml(raw)}</pre></details></td>
<td>${events}</td>
</tr>`;
}

/**
 * The page for `messages` (newest first). `total` is the number of stored messages when the
 * caller passes only the newest MAILBOX_PAGE_LIMIT of them.
 */
export function renderMailboxHtml(messages: LocalSesMessage[], total: number = messages.length): string {
  const shown = messages.slice(0, MAILBOX_PAGE_LIMIT);
  const count = Math.max(total, shown.length);
  const note =
    count > shown.length
      ? `Showing the newest ${shown.length} of ${count} messages; the JSON endpoint lists all.`
      : `${count} message${count === 1 ? '' : 's'}, newest first.`;
  const body = shown.length
    ? `<table>
<thead><tr><th>Received</th><th>From</th><th>To (envelope)</th><th>Subject</th><th>Events</th></tr></thead>
<tbody>
${shown.map(row).join('\n')}
</tbody>
</table>`
    : '<p>No messages yet.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local SES mailbox</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Local SES mailbox</h1>
<p class="note">${escapeHtml(note)}</p>
${body}
</body>
</html>
`;
}
