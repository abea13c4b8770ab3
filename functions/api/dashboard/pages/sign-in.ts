/**
 * The sign-in page: a plain HTML form posting (url-encoded) to POST /dashboard/sign-in
 * (../session-routes.ts), which answers a form with 303 to `next` (a dashboard page; else the emails
 * page) and re-renders this page with the error on failure. No CSRF token exists before a session: the
 * sign-in's same-origin check protects it (docs/dashboard.md). When the deployment has an OpenID Connect
 * provider, a link (no script) starts its flow: "Sign in with <label>" (../oidc-routes.ts). A link, not a form:
 * the start answers 302 to the provider, and a form submission's redirects are held to the page's CSP
 * `form-action 'self'` (Chromium blocks a form's redirect to another origin); a followed link is not.
 */
import type { Context } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { OIDC_START_PATH } from '#shared/domain/dashboard/oidc';
import { safeNext, takeFlash } from './forms';
import { html, respond, type Flash, type PageOptions } from './layout';

export interface SignInPageOptions {
  next?: string | null;
  email?: string;
  error?: string;
  status?: PageOptions['status'];
  /** The deployment's OpenID Connect provider, when it has one: its button's label. */
  oidc?: { label: string } | null;
}

export function signInPage(c: Context<ApiEnv>, options: SignInPageOptions = {}): Response {
  const next = safeNext(options.next);
  const flash: Flash | null = options.error ? { kind: 'error', text: options.error } : takeFlash(c);
  const body = html`<form method="post" action="/dashboard/sign-in" class="card narrow">
<input type="hidden" name="next" value="${next}">
<div class="field"><label for="sign-in-email">Email</label><input id="sign-in-email" name="email" type="email" autocomplete="username" required${options.email ? html` value="${options.email}"` : ''}${options.email ? '' : html` autofocus`}></div>
<div class="field"><label for="sign-in-password">Password</label><input id="sign-in-password" name="password" type="password" autocomplete="current-password" required${options.email ? html` autofocus` : ''}></div>
<p><button type="submit">Sign in</button></p>
</form>${
    options.oidc
      ? html`
<p class="card narrow"><a class="button" href="${OIDC_START_PATH}?next=${encodeURIComponent(next)}">Sign in with ${options.oidc.label}</a></p>`
      : ''
  }
<p class="hint">No user yet? An operator creates one: <code>npm run --silent admin -- user create --account acc_... --email you@example.com</code></p>`;
  return respond(c, { title: 'Sign in', body, flash, user: null, status: options.status ?? 200 });
}
