/**
 * API keys and SMTP credentials: the list, create (the secret is shown once, in the create's own answer:
 * never in a URL, a flash or a later page; only its hash is stored) and revoke. Use cases: createApiKey,
 * listApiKeys, revokeApiKey, createSmtpCredential, listSmtpCredentials, revokeSmtpCredential. The form
 * offers only the scopes the member's role may grant (its session's scopes: ROLE_SCOPES); the use case
 * refuses any other whatever is posted.
 */
import { toPublicApiKey } from '#shared/domain/api-keys/api-key';
import { createApiKeySchema } from '#shared/domain/api-keys/schemas';
import { grantableScopes } from '#shared/domain/api-keys/reach';
import { createSmtpCredentialSchema } from '#shared/domain/smtp-credentials/schemas';
import { toPublicSmtpCredential } from '#shared/domain/smtp-credentials/smtp-credential';
import { parseWith } from '#shared/doors/http/request-validation';
import { createApiKey, listApiKeys, revokeApiKey } from '#shared/usecases/access/api-keys';
import { createSmtpCredential, listSmtpCredentials, revokeSmtpCredential } from '#shared/usecases/access/smtp-credentials';
import {
  buttonForm,
  checkboxes,
  field,
  formAction,
  input,
  pager,
  pageRequest,
  pageState,
  postForm,
  redirectTo,
  render,
  secretBox,
  type PageContext,
  param,
} from './forms';
import type { PageRoutes } from './page-routes';
import { html, table, time, type Html } from './layout';
import { recordCreated } from '#shared/doors/http/created-ids';

/** The optional fields both kinds share: a tenant, and the domains it may send from (comma-separated). */
function limits(form: URLSearchParams) {
  const domains = field(form, 'allowed_domains')
    ?.split(/[\s,]+/)
    .filter(Boolean);
  return { ...(field(form, 'tenant') ? { tenant: field(form, 'tenant') } : {}), ...(domains?.length ? { allowed_domains: domains } : {}) };
}

const limitFields = () =>
  html`${input('Tenant', 'tenant', { hint: 'Optional: limit it to one tenant (external id).' })}${input('Allowed domains', 'allowed_domains', { hint: 'Optional, comma-separated: it may send only from these.' })}`;

export function addApiKeyPages(routes: PageRoutes): void {
  const { services } = routes;

  async function keysPage(c: PageContext, created: { name: string; secret: string } | null): Promise<Response> {
    const state = created ? {} : pageState(c);
    const page = await listApiKeys(services, c.get('principal'), pageRequest(state));
    const rows = page.items
      .map(toPublicApiKey)
      .map(
        (key) =>
          html`<tr><td id="key-${key.id}">${key.name}</td><td><code>${key.hint}</code></td><td>${key.scopes.join(', ')}</td><td>${key.tenant ?? ''}${key.allowed_domains ? html`<br><span class="muted">from ${key.allowed_domains.join(', ')}</span>` : ''}</td><td>${time(key.created_at)}</td><td>${buttonForm(c, `/dashboard/api-keys/${key.id}/revoke`, 'Revoke', { className: 'danger', describedBy: `key-${key.id}` })}</td></tr>`,
      );
    // The widest scope the role may grant is checked: full for owners and admins, mail:admin for developers.
    const grantable = grantableScopes(c.get('principal').credential.scopes);
    const body = html`${created ? secretBox('API key secret', created.secret, `This is the secret of "${created.name}". Copy it now: it is shown only this once (only its hash is kept). Use it as "Authorization: Bearer <secret>".`) : ''}
<section aria-labelledby="create-heading"><h2 id="create-heading">Create an API key</h2>${postForm(
      c,
      '/dashboard/api-keys',
      html`<div class="fields">${input('Name', 'name', { required: true, placeholder: 'production' })}${limitFields()}</div>${checkboxes('Scopes', 'scopes', grantable, (scope) => scope === grantable[0])}<p><button type="submit">Create API key</button></p>`,
    )}</section>
<h2>Keys</h2>${table('API keys, newest first', ['Name', 'Key', 'Scopes', 'Limits', 'Created', 'Actions'], rows, 'No API keys.')}
${pager('/dashboard/api-keys', {}, state, page.next_cursor)}`;
    return render(c, { title: 'API keys', body });
  }

  routes.page('/api-keys', (c) => keysPage(c, null));

  routes.action('/api-keys', (c, form) =>
    formAction(c, '/dashboard/api-keys', async () => {
      const input = parseWith(createApiKeySchema, { name: field(form, 'name') ?? '', scopes: form.getAll('scopes'), ...limits(form) });
      const { apiKey, secret } = await createApiKey(services, c.get('principal'), input);
      recordCreated(c, 'id', apiKey.id);
      return keysPage(c, { name: apiKey.name, secret });
    }),
  );

  routes.action('/api-keys/:id/revoke', (c) =>
    formAction(c, '/dashboard/api-keys', async () => {
      await revokeApiKey(services, c.get('principal'), param(c, 'id'));
      return redirectTo(c, '/dashboard/api-keys', { kind: 'ok', text: 'API key revoked: it no longer works.' });
    }),
  );
}

export function addSmtpCredentialPages(routes: PageRoutes): void {
  const { services } = routes;

  async function credentialsPage(c: PageContext, created: { name: string; username: string; password: string } | null): Promise<Response> {
    const state = created ? {} : pageState(c);
    const page = await listSmtpCredentials(services, c.get('principal'), pageRequest(state));
    const rows: Html[] = page.items
      .map(toPublicSmtpCredential)
      .map(
        (credential) =>
          html`<tr><td id="cred-${credential.id}">${credential.name}</td><td><code>${credential.username}</code></td><td>${credential.tenant ?? ''}${credential.allowed_domains ? html`<br><span class="muted">from ${credential.allowed_domains.join(', ')}</span>` : ''}</td><td>${time(credential.created_at)}</td><td>${time(credential.last_used_at)}</td><td>${buttonForm(c, `/dashboard/smtp-credentials/${credential.id}/revoke`, 'Revoke', { className: 'danger', describedBy: `cred-${credential.id}` })}</td></tr>`,
      );
    const body = html`${created ? secretBox('SMTP password', created.password, `The password of "${created.name}" (username ${created.username}). Copy it now: it is shown only this once.`) : ''}
<section aria-labelledby="create-heading"><h2 id="create-heading">Create an SMTP credential</h2>${postForm(
      c,
      '/dashboard/smtp-credentials',
      html`<div class="fields">${input('Name', 'name', { required: true, placeholder: 'app server' })}${limitFields()}</div><p><button type="submit">Create SMTP credential</button></p>`,
    )}<p class="hint">SMTP credentials may only send (docs/smtp.md).</p></section>
<h2>Credentials</h2>${table('SMTP credentials, newest first', ['Name', 'Username', 'Limits', 'Created', 'Last used', 'Actions'], rows, 'No SMTP credentials.')}
${pager('/dashboard/smtp-credentials', {}, state, page.next_cursor)}`;
    return render(c, { title: 'SMTP credentials', body });
  }

  routes.page('/smtp-credentials', (c) => credentialsPage(c, null));

  routes.action('/smtp-credentials', (c, form) =>
    formAction(c, '/dashboard/smtp-credentials', async () => {
      const input = parseWith(createSmtpCredentialSchema, { name: field(form, 'name') ?? '', ...limits(form) });
      const { credential, password } = await createSmtpCredential(services, c.get('principal'), input);
      recordCreated(c, 'id', credential.id);
      return credentialsPage(c, { name: credential.name, username: toPublicSmtpCredential(credential).username, password });
    }),
  );

  routes.action('/smtp-credentials/:id/revoke', (c) =>
    formAction(c, '/dashboard/smtp-credentials', async () => {
      await revokeSmtpCredential(services, c.get('principal'), param(c, 'id'));
      return redirectTo(c, '/dashboard/smtp-credentials', { kind: 'ok', text: 'SMTP credential revoked: it no longer signs in.' });
    }),
  );
}
