/**
 * The plumbing every dashboard page shares (docs/dashboard.md, "Pages"):
 *
 * - authentication: every route goes through `requireSession`; its 401 becomes, in `pageError`, a 302
 *   to the sign-in page with `next` for a page (GET) and a 303 to it for a form post; a form post also
 *   needs its origin and the `csrf_token` field (403);
 * - forms: url-encoded bodies with the session's CSRF token in a hidden `csrf_token` field;
 * - POST-redirect-GET: an action answers 303 to a page, with a one-shot flash message in a short-lived
 *   cookie (`svc_flash`, HttpOnly, 60 s), read and cleared by the next page. Secrets shown once are never
 *   flashed: the action's own answer shows them;
 * - pagination: "Older" and "Newer" links carrying the opaque cursor and the cursors of the pages before;
 * - errors: a page's error is an HTML page with the status; a form's 4xx error goes back with a flash.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { AppError, ValidationError } from '#shared/domain/errors';
import type { ApiEnv } from '#shared/doors/http/env';
import { errorResponse } from '#shared/doors/http/errors';
import { isFormBody, isStateChanging } from '#shared/doors/http/middleware/session';
import { logError } from '#shared/lib/log';
import { html, raw, respond, type Flash, type Html, type PageOptions } from './layout';
import { accountBanner } from './account-banner';

/** A paused account's banner (docs/deliverability.md, "Reputation guard"), from the signed-in principal's account. */
function accountBannerOf(c: PageContext): Html | '' {
  const account = c.get('session') ? c.get('principal')?.account : undefined;
  return account ? accountBanner(account) : '';
}

export type PageContext = Context<ApiEnv>;

// --- Authentication -------------------------------------------------------------------------------

export const SIGN_IN_PATH = '/dashboard/sign-in';
export const HOME_PATH = '/dashboard/emails';

/** The path and query of the request (what `next` brings the browser back to). */
export function pathWithQuery(c: PageContext): string {
  const url = new URL(c.req.url);
  return url.pathname + url.search;
}

/** `next` after signing in: a dashboard page of this origin, else the emails page (never an open redirect). */
export function safeNext(value: string | null | undefined): string {
  if (!value || value.length > 2048) return HOME_PATH;
  if (!/^\/dashboard(\/|\?|$)/.test(value) || value.includes('\\') || /[\u0000-\u001f\u007f]/.test(value)) return HOME_PATH;
  if (value.startsWith(SIGN_IN_PATH) || value.startsWith('/dashboard/sign-out')) return HOME_PATH;
  return value;
}

export const signInUrl = (next: string) => `${SIGN_IN_PATH}?${new URLSearchParams({ next })}`;

// --- Flash messages and redirects -----------------------------------------------------------------

const FLASH_COOKIE = 'svc_flash';
const FLASH_ATTRIBUTES = { path: '/dashboard', httpOnly: true, secure: true, sameSite: 'Lax' } as const;

export function setFlash(c: PageContext, flash: Flash): void {
  setCookie(c, FLASH_COOKIE, Buffer.from(JSON.stringify({ k: flash.kind, t: flash.text.slice(0, 1000) }), 'utf8').toString('base64url'), {
    ...FLASH_ATTRIBUTES,
    maxAge: 60,
  });
}

/** The flash the last action left (and clears it). */
export function takeFlash(c: PageContext): Flash | null {
  const value = getCookie(c, FLASH_COOKIE);
  if (value === undefined) return null;
  deleteCookie(c, FLASH_COOKIE, FLASH_ATTRIBUTES);
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { k?: unknown; t?: unknown };
    if ((parsed.k === 'ok' || parsed.k === 'error') && typeof parsed.t === 'string') return { kind: parsed.k, text: parsed.t };
  } catch {
    // A cookie we did not write: no message.
  }
  return null;
}

/** 303 See Other to `location` (a page of ours), with a flash message. */
export function redirectTo(c: PageContext, location: string, flash?: Flash): Response {
  if (flash) setFlash(c, flash);
  return c.redirect(location, 303);
}

// --- Rendering with the session ------------------------------------------------------------------

/** The signed-in user as the header shows them. */
export function userOf(c: PageContext): PageOptions['user'] {
  const active = c.get('session');
  return active ? { email: active.user.email, csrf: active.session.csrf_token, role: active.user.role } : null;
}

/** A page for the signed-in user, with the pending flash message unless one is given. */
export function render(c: PageContext, options: Omit<PageOptions, 'user'>): Response {
  return respond(c, { ...options, user: userOf(c), flash: options.flash ?? takeFlash(c), banner: accountBannerOf(c) });
}

// --- Forms ----------------------------------------------------------------------------------------

export function csrfField(c: PageContext): Html {
  return html`<input type="hidden" name="csrf_token" value="${c.get('session').session.csrf_token}">`;
}

/** A form posting to `action` with the CSRF field; `attributes` are markup built by the page code (e.g. ./doors.ts). */
export function postForm(c: PageContext, action: string, inner: Html, attributes: string | Html = ''): Html {
  return html`<form method="post" action="${action}"${attributes ? raw(` ${attributes}`) : ''}>${csrfField(c)}${inner}</form>`;
}

/**
 * A form with a single button (revoke, verify, replay, ...): buttons, never links, change things.
 * `describedBy`: the id of what the button acts on (a row's name), so "Revoke" says which.
 */
export function buttonForm(
  c: PageContext,
  action: string,
  label: string,
  options: { className?: string; hidden?: Record<string, string>; describedBy?: string; attributes?: Html } = {},
): Html {
  const hidden = Object.entries(options.hidden ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  return html`<form class="inline" method="post" action="${action}"${options.attributes ? html` ${options.attributes}` : ''}>${csrfField(c)}${hidden}<button type="submit"${options.className ? html` class="${options.className}"` : ''}${options.describedBy ? html` aria-describedby="${options.describedBy}"` : ''}>${label}</button></form>`;
}

/** The url-encoded form the request carries (empty for any other body). */
export async function readForm(c: PageContext): Promise<URLSearchParams> {
  if (!isFormBody(c)) return new URLSearchParams();
  return new URLSearchParams(await c.req.text());
}

/** A path parameter of the route (always present on the routes that name it). */
export function param(c: PageContext, name: string): string {
  return c.req.param(name) ?? '';
}

/** A form field's value, trimmed; undefined when absent or empty. */
export function field(form: URLSearchParams, name: string): string | undefined {
  const value = form.get(name)?.trim();
  return value ? value : undefined;
}

/** A form field holding JSON (a textarea): `fallback` when left empty, 400 naming the field when it is not JSON. */
export function jsonField(form: URLSearchParams, name: string, fallback: unknown, message = `${name} is not valid JSON.`): unknown {
  const text = form.get(name);
  if (!text?.trim()) return fallback;
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError(message, { details: { fields: [{ field: name, message: 'invalid JSON' }] } });
  }
}

let inputIds = 0;
/** A labelled input (`type` text unless given); ids are unique within the process, labels point at them. */
export function input(
  label: string,
  name: string,
  options: {
    type?: string;
    value?: string | null;
    required?: boolean;
    hint?: string;
    placeholder?: string;
    autocomplete?: string;
    id?: string;
  } = {},
): Html {
  const id = options.id ?? `f-${name}-${++inputIds % 100000}`;
  const hintId = `${id}-hint`;
  return html`<div class="field"><label for="${id}">${label}</label><input id="${id}" name="${name}" type="${options.type ?? 'text'}"${options.value ? html` value="${options.value}"` : ''}${options.required ? raw(' required') : ''}${options.placeholder ? html` placeholder="${options.placeholder}"` : ''}${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${options.hint ? html` aria-describedby="${hintId}"` : ''}>${options.hint ? html`<span class="hint" id="${hintId}">${options.hint}</span>` : ''}</div>`;
}

export function textarea(
  label: string,
  name: string,
  options: { value?: string | null; rows?: number; hint?: string; required?: boolean } = {},
): Html {
  const id = `f-${name}-${++inputIds % 100000}`;
  const hintId = `${id}-hint`;
  return html`<div class="field"><label for="${id}">${label}</label><textarea id="${id}" name="${name}" rows="${options.rows ?? 8}"${options.required ? raw(' required') : ''}${options.hint ? html` aria-describedby="${hintId}"` : ''}>${options.value ?? ''}</textarea>${options.hint ? html`<span class="hint" id="${hintId}">${options.hint}</span>` : ''}</div>`;
}

export function select(
  label: string,
  name: string,
  choices: readonly { value: string; label: string }[],
  selected?: string | null,
  options: { id?: string } = {},
): Html {
  const id = options.id ?? `f-${name}-${++inputIds % 100000}`;
  return html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${name}">${choices.map(
    (choice) => html`<option value="${choice.value}"${choice.value === (selected ?? '') ? raw(' selected') : ''}>${choice.label}</option>`,
  )}</select></div>`;
}

/** A fieldset of checkboxes named `name` (one value each), each labelled by `label` (the value itself by default). */
export function checkboxes(
  legend: string,
  name: string,
  values: readonly string[],
  checked: (value: string) => boolean,
  label: (value: string) => string = (value) => value,
): Html {
  return html`<fieldset><legend>${legend}</legend><div class="checks">${values.map((value) => {
    const id = `f-${name}-${++inputIds % 100000}`;
    return html`<span><input type="checkbox" id="${id}" name="${name}" value="${value}"${checked(value) ? raw(' checked') : ''}> <label for="${id}">${label(value)}</label></span>`;
  })}</div></fieldset>`;
}

/** A secret shown once, with its accessible name. */
export function secretBox(label: string, secret: string, note: string): Html {
  return html`<section aria-labelledby="secret-heading"><h2 id="secret-heading">${label}</h2><div class="secret"><code aria-label="${label}" data-copy>${secret}</code></div><p>${note}</p></section>`;
}

// --- Pagination -----------------------------------------------------------------------------------

/** Cursors of the pages before this one kept in links (the oldest are dropped beyond this). */
const TRAIL_MAX = 20;

export interface PageState {
  cursor?: string;
  /** Cursors of the earlier pages, oldest first ('' for the first page); undefined on the first page. */
  prev?: string[];
}

/** Rows per page of every list (the tenants page, which reads stats per row, shows fewer). */
export const LIST_PAGE_SIZE = 25;

/** The list use cases' page request for `state`. */
export const pageRequest = (state: PageState) => ({ limit: LIST_PAGE_SIZE, cursor: state.cursor });

export function pageState(c: PageContext): PageState {
  const cursor = c.req.query('cursor') || undefined;
  const prev = c.req.query('prev');
  return { ...(cursor ? { cursor } : {}), ...(prev === undefined || !cursor ? {} : { prev: prev.split('.') }) };
}

function pageUrl(path: string, params: Record<string, string | undefined>, cursor: string | undefined, prev: string[] | undefined): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  if (cursor) query.set('cursor', cursor);
  if (cursor && prev && prev.length > 0) query.set('prev', prev.join('.'));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** "Newer" (back a page) and "Older" (the next cursor) links, keeping the filters in `params`. */
export function pager(path: string, params: Record<string, string | undefined>, state: PageState, nextCursor: string | null): Html {
  const links: Html[] = [];
  if (state.cursor) {
    const prev = state.prev ?? [];
    const newer = prev.length > 0 ? prev[prev.length - 1] : undefined;
    links.push(html`<a href="${pageUrl(path, params, newer || undefined, prev.slice(0, -1))}" rel="prev">Newer</a>`);
    if (newer) links.push(html`<a href="${pageUrl(path, params, undefined, undefined)}">Newest</a>`);
  }
  if (nextCursor)
    links.push(
      html`<a href="${pageUrl(path, params, nextCursor, [...(state.prev ?? []), state.cursor ?? ''].slice(-TRAIL_MAX))}" rel="next">Older</a>`,
    );
  return links.length ? html`<nav class="pager" aria-label="Pages">${links}</nav>` : html``;
}

// --- Errors ---------------------------------------------------------------------------------------

/** An error as one readable sentence: the message, each field's problem, and the hint. */
export function errorText(error: AppError): string {
  const fields = Array.isArray(error.details?.fields) ? (error.details.fields as { field?: string; message?: string }[]) : [];
  const problems = fields.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  return [error.message, problems && !error.message.includes(problems) ? problems : '', error.hint ?? ''].filter(Boolean).join(' ');
}

/**
 * A use case's refusal the person can act on (a 4xx other than 401, which means "sign in") as an error
 * flash; anything else is thrown on (to pageError). What a form action or a search shows beside the form.
 */
export function problemFlash(error: unknown): Flash {
  if (error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 401)
    return { kind: 'error', text: errorText(error) };
  throw error;
}

/** A form action: a 4xx from the use case goes back to `back` with the error as the flash. */
export async function formAction(c: PageContext, back: string, act: () => Promise<Response>): Promise<Response> {
  try {
    return await act();
  } catch (error) {
    return redirectTo(c, back, problemFlash(error));
  }
}

/**
 * A form action whose refusal by the role (403: docs/dashboard.md, "Teams and roles") is the HTML error
 * page with its status, as for every form a role may not use; any other 4xx goes back to `back` as the flash.
 */
export async function roleCheckedAction(c: PageContext, back: string, act: () => Promise<Response>): Promise<Response> {
  try {
    return await act();
  } catch (error) {
    if (error instanceof AppError && error.status === 403 && error.code === 'forbidden' && error.details?.role !== undefined) throw error;
    return redirectTo(c, back, problemFlash(error));
  }
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  422: 'Cannot do that',
  429: 'Too many requests',
};

/**
 * The pages' error handler: no session sends the browser to sign in (a page keeps `next`); any other
 * error is an HTML page with its status and message (the API's envelope, readable).
 */
export function pageError(error: Error, c: PageContext): Response {
  const { status, headers } = errorResponse(error);
  if (status === 401) return isStateChanging(c.req.method) ? c.redirect(SIGN_IN_PATH, 303) : c.redirect(signInUrl(pathWithQuery(c)), 302);
  for (const [name, value] of Object.entries(headers ?? {})) c.header(name, value);
  if (status >= 500) logError('dashboard page failed', error, { request_id: c.get('requestId'), path: c.req.path });
  const message =
    error instanceof AppError
      ? errorText(error)
      : 'Something went wrong on our side. Try again; if it keeps happening, check the service logs for the request id.';
  const title = TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'Error');
  const body = html`<p>${message}</p>${status >= 500 ? html`<p class="muted">Request id: <code>${c.get('requestId') ?? ''}</code></p>` : ''}<p><a href="${HOME_PATH}">Back to the dashboard</a></p>`;
  return respond(c, { title, body, status: status as PageOptions['status'], user: c.get('session') ? userOf(c) : null, flash: null });
}
