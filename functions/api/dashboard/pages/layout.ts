/**
 * The dashboard's page frame (docs/dashboard.md, "Pages"): server-rendered HTML with `hono/html` tagged
 * templates, which escape every interpolated value (`raw()` only for markup built here). Every page has
 * a skip link, a header with the main navigation and the sign-out button, one `main` with one h1, and a
 * live region for the flash message. Security headers: a Content-Security-Policy that loads scripts and
 * styles from the dashboard only and lets its script send requests to the dashboard's origin only (the
 * email preview frame inherits it: remote images do not load), no framing, and a same-origin referrer
 * policy (`no-referrer` would make browsers send `Origin: null` on form posts, which the CSRF origin check
 * refuses).
 */
import type { Context } from 'hono';
import { html as honoHtml, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { ApiEnv } from '#shared/doors/http/env';
import { ASSETS } from './assets';
import { toneOf } from './status-tones';

export type Html = HtmlEscapedString;
/** Interpolations: strings and numbers (escaped), Html (kept), arrays of them, and null/undefined/false (nothing). */
export type Part = Html | string | number | null | undefined | false | readonly Part[];

/** `hono/html`'s template tag; values here are never promises, so the result is a string at once. */
export const html = honoHtml as (strings: TemplateStringsArray, ...values: Part[]) => Html;
export { raw };

export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // The page script's requests (fetch) to the session doors, /api/events and /api/webhooks: this origin only.
  "connect-src 'self'",
  // 'unsafe-inline' for styles only: emails shown in the preview frame style themselves inline.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const NAV: readonly { label: string; path: string }[] = [
  { label: 'Emails', path: '/dashboard/emails' },
  { label: 'Domains', path: '/dashboard/domains' },
  { label: 'API keys', path: '/dashboard/api-keys' },
  { label: 'SMTP credentials', path: '/dashboard/smtp-credentials' },
  { label: 'Webhooks', path: '/dashboard/webhooks' },
  { label: 'Suppressions', path: '/dashboard/suppressions' },
  { label: 'Tenants', path: '/dashboard/tenants' },
  { label: 'Templates', path: '/dashboard/templates' },
  { label: 'Automations', path: '/dashboard/automations' },
  { label: 'Received', path: '/dashboard/received' },
  { label: 'Imports', path: '/dashboard/imports' },
  { label: 'Audit log', path: '/dashboard/audit-log' },
  { label: 'Settings', path: '/dashboard/settings' },
];

export interface Flash {
  kind: 'ok' | 'error';
  text: string;
}

export interface PageOptions {
  /** The h1 and the document title. */
  title: string;
  body: Html;
  /** The signed-in user (the header shows the navigation and sign-out only then). */
  user?: { email: string; csrf: string; role?: string } | null;
  flash?: Flash | null;
  /** Seconds: the page reloads itself (`<meta http-equiv="refresh">`). */
  refresh?: number;
  status?: 200 | 400 | 401 | 403 | 404 | 409 | 422 | 429 | 500 | 502 | 503;
  /** Something between the h1 and the body (e.g. a status badge). */
  lead?: Html | null;
  /** Above the flash message on every page of a signed-in user (a paused account's banner: ./account-banner.ts). */
  banner?: Html | '' | null;
}

function navigation(path: string): Html {
  const current = NAV.find((item) => path === item.path || path.startsWith(`${item.path}/`));
  return html`<nav aria-label="Main"><ul>${NAV.map(
    (item) => html`<li><a href="${item.path}"${item === current ? raw(' aria-current="page"') : ''}>${item.label}</a></li>`,
  )}</ul></nav>`;
}

function flashBox(flash: Flash | null | undefined): Html {
  if (!flash) return html``;
  return flash.kind === 'error' ? html`<p class="error" role="alert">${flash.text}</p>` : html`<p class="ok">${flash.text}</p>`;
}

export function renderDocument(path: string, options: PageOptions): string {
  const user = options.user ?? null;
  const header = user
    ? html`<header class="top"><a class="brand" href="/dashboard/emails">Mail service</a>${navigation(path)}<form method="post" action="/dashboard/sign-out"><input type="hidden" name="csrf_token" value="${user.csrf}"><span class="who">${user.email}${user.role ? html` · <a class="members" href="/dashboard/members">${user.role}</a>` : ''}</span><button type="submit">Sign out</button></form></header>`
    : html`<header class="top"><span class="brand">Mail service</span></header>`;
  return String(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" href="data:,">
<title>${options.title} · Mail service dashboard</title>
<link rel="stylesheet" href="${ASSETS.css.path}"><script src="${ASSETS.js.path}" defer></script>${options.refresh ? html`<meta http-equiv="refresh" content="${options.refresh}">` : ''}
</head><body><a class="skip" href="#main">Skip to main content</a>
${header}
<main id="main" tabindex="-1">${user ? (options.banner ?? '') : ''}<div class="flash" aria-live="polite">${flashBox(options.flash)}</div>
<h1>${options.title}</h1>${options.lead ?? ''}
${options.body}
</main></body></html>`);
}

/** The page as the response, with the dashboard's security headers. */
export function respond(c: Context<ApiEnv>, options: PageOptions): Response {
  c.header('Content-Security-Policy', CSP);
  c.header('X-Frame-Options', 'DENY');
  c.header('Referrer-Policy', 'same-origin');
  c.header('X-Content-Type-Options', 'nosniff');
  return c.html(renderDocument(c.req.path, options), options.status ?? 200);
}

// Small pieces every page uses.

/** A status word in a badge (the word itself is the information; colour only repeats it: ./status-tones.ts). */
export function badge(status: string | null | undefined): Html {
  if (!status) return html`<span class="status">none</span>`;
  return html`<span class="status ${toneOf(status)}">${status.replace(/_/g, ' ')}</span>`;
}

/** A timestamp, readable and machine-readable. */
export function time(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">—</span>`;
  const shown = iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  return html`<time datetime="${iso}">${shown}</time>`;
}

export function percent(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(value > 0 && value < 0.01 ? 2 : 1)}%`;
}

/** A table with a caption, its header cells scoped to columns (or a sentence when there are no rows). */
export function table(caption: string, headings: readonly string[], rows: readonly Html[], empty = 'Nothing here yet.'): Html {
  if (rows.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<div class="table-wrap"><table><caption class="muted">${caption}</caption><thead><tr>${headings.map((heading) => html`<th scope="col">${heading}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** Pretty JSON for a <pre>. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
