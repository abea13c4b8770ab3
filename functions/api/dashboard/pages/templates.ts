/**
 * Templates: the list and a create form; one template's page with its draft's edit form, a preview with
 * variables (rendered as a send would, in a sandboxed frame) and Publish. Use cases: createTemplate,
 * listTemplates, getTemplate, updateTemplate, publishTemplate, renderTemplatePreview (the templates group's).
 */
import { createTemplateSchema, renderTemplateSchema, updateTemplateSchema } from '#shared/domain/templates/schemas';
import { toPublicTemplate } from '#shared/domain/templates/template';
import { parseWith } from '#shared/doors/http/request-validation';
import {
  createTemplate,
  getTemplate,
  listTemplates,
  publishTemplate,
  renderTemplatePreview,
  updateTemplate,
  type TemplatePreview,
} from '#shared/usecases/templates/templates';
import {
  buttonForm,
  field,
  formAction,
  jsonField,
  input,
  pager,
  pageRequest,
  pageState,
  postForm,
  redirectTo,
  render,
  select,
  textarea,
  type PageContext,
  param,
} from './forms';
import type { PageRoutes } from './page-routes';
import type { DashboardServices } from '../services';
import { badge, html, json, table, time } from './layout';
import { recordCreated } from '#shared/doors/http/created-ids';

type PublicTemplate = ReturnType<typeof toPublicTemplate>;

/** A textarea's body: its text, or null when left empty (no such part). */
const bodyField = (form: URLSearchParams, name: string) => (form.get(name)?.trim() ? form.get(name)!.replace(/\r\n/g, '\n') : null);

/** A tracking switch's three choices: the domain's setting (null), on, off (docs/tracking.md, "Per message"). */
const TRACKING_CHOICES = [
  { value: '', label: "The domain's setting" },
  { value: 'true', label: 'On' },
  { value: 'false', label: 'Off' },
] as const;

const trackingChoice = (value: boolean | null) => (value === null ? '' : String(value));

/**
 * A tracking select's value: null (the domain's setting), true or false; undefined when the form has no such
 * field (the switch is left as it is); anything else is left to the schema to refuse.
 */
function trackingField(form: URLSearchParams, name: string): unknown {
  if (!form.has(name)) return undefined;
  const value = form.get(name) ?? '';
  return value === '' ? null : value === 'true' ? true : value === 'false' ? false : value;
}

const trackingLabel = (value: boolean | null) => (value === null ? "the domain's setting" : value ? 'on' : 'off');

function statusOf(template: Pick<PublicTemplate, 'status' | 'has_unpublished_changes'>) {
  return html`${badge(template.status)}${template.status === 'published' && template.has_unpublished_changes ? html` <span class="muted">(draft has unpublished changes)</span>` : ''}`;
}

function sampleVariables(template: PublicTemplate): string {
  return json(
    Object.fromEntries(
      template.variables.map((variable) => [variable.key, variable.fallback_value ?? (variable.type === 'number' ? 0 : '')]),
    ),
  );
}

function previewSection(preview: TemplatePreview): ReturnType<typeof html> {
  return html`<section aria-labelledby="preview-heading"><h2 id="preview-heading">Preview</h2>
<dl class="facts"><dt>Subject</dt><dd>${preview.subject}</dd></dl>
${preview.warnings.length ? html`<ul>${preview.warnings.map((warning) => html`<li>${warning.message}</li>`)}</ul>` : html`<p class="muted">No warnings.</p>`}
${preview.html !== null ? html`<iframe class="preview" sandbox title="Template preview" srcdoc="${preview.html}"></iframe>` : ''}
${preview.text !== null ? html`<details${preview.html === null ? html` open` : ''}><summary>Text version</summary><pre>${preview.text}</pre></details>` : ''}</section>`;
}

/** One template: its facts, Publish, the preview (when asked for), the preview form and the draft's edit form. */
function templatePage(c: PageContext, template: PublicTemplate, preview: { result: TemplatePreview; variables: string } | null): Response {
  const base = `/dashboard/templates/${template.alias}`;
  const body = html`<dl class="facts"><dt>Alias</dt><dd><code>${template.alias}</code></dd><dt>Status</dt><dd>${statusOf(template)}</dd><dt>Published version</dt><dd>${template.published_version ?? 'none'}${template.published_at ? html` (${time(template.published_at)})` : ''}</dd><dt>Category</dt><dd>${template.category}</dd><dt>Tracking</dt><dd>opens ${trackingLabel(template.track_opens)}, clicks ${trackingLabel(template.track_clicks)}</dd><dt>Variables</dt><dd>${template.variables.length ? template.variables.map((variable) => `${variable.key} (${variable.type}${variable.fallback_value !== null ? `, fallback ${variable.fallback_value}` : ''})`).join(', ') : 'none declared'}</dd></dl>
<div class="actions">${buttonForm(c, `${base}/publish`, 'Publish')} <span class="hint">Sends with this template use the published version; edits stay in the draft until published.</span></div>
${preview ? previewSection(preview.result) : ''}
<section aria-labelledby="preview-form-heading"><h2 id="preview-form-heading">Preview with variables</h2>${postForm(
    c,
    `${base}/preview`,
    html`${textarea('Variables (JSON)', 'variables', { value: preview?.variables ?? sampleVariables(template), rows: 5, hint: "An object of variable name to value, as a send's template.variables." })}<p><button type="submit">Preview</button></p>`,
  )}</section>
<section aria-labelledby="edit-heading"><h2 id="edit-heading">Edit the draft</h2>${postForm(
    c,
    base,
    html`<div class="fields">${input('Name', 'name', { value: template.name, required: true })}${input('Subject', 'subject', { value: template.subject, required: true })}</div>${textarea('HTML', 'html', { value: template.html, rows: 14 })}${textarea('Text', 'text', { value: template.text, rows: 6 })}<div class="fields">${select('Open tracking', 'track_opens', TRACKING_CHOICES, trackingChoice(template.track_opens))}${select('Click tracking', 'track_clicks', TRACKING_CHOICES, trackingChoice(template.track_clicks))}</div><p class="hint">Over the sending domain's tracking settings for this template's sends; a send's own track_opens and track_clicks win over them.</p><p><button type="submit">Save draft</button></p>`,
  )}</section>`;
  return render(c, { title: template.name, lead: html`<p><a href="/dashboard/templates">← All templates</a></p>`, body });
}

/** The templates, newest first, and the create form. */
async function templateListPage(services: DashboardServices, c: PageContext): Promise<Response> {
  const state = pageState(c);
  const page = await listTemplates(services, c.get('principal'), pageRequest(state));
  const rows = page.items
    .map(toPublicTemplate)
    .map(
      (template) =>
        html`<tr><td><a href="/dashboard/templates/${template.alias}">${template.name}</a></td><td><code>${template.alias}</code></td><td>${statusOf(template)}</td><td>${time(template.updated_at)}</td></tr>`,
    );
  const body = html`${table('Templates, newest first', ['Name', 'Alias', 'Status', 'Updated'], rows, 'No templates yet.')}
${pager('/dashboard/templates', {}, state, page.next_cursor)}
<section aria-labelledby="create-heading"><h2 id="create-heading">Create a template</h2>${postForm(
    c,
    '/dashboard/templates',
    html`<div class="fields">${input('Name', 'name', { required: true })}${input('Alias', 'alias', { required: true, hint: 'Lower-case letters, digits, _ and -; sends name the template by it.' })}${input('Subject', 'subject', { required: true })}</div>${textarea('HTML', 'html', { value: '<p>Hello {{name}}</p>', rows: 8 })}<p><button type="submit">Create template</button></p>`,
  )}</section>`;
  return render(c, { title: 'Templates', body });
}

/** The list and the create action (a draft, then its page). */
function addTemplateListPages(routes: PageRoutes): void {
  const { services } = routes;

  routes.page('/templates', (c) => templateListPage(services, c));

  routes.action('/templates', (c, form) =>
    formAction(c, '/dashboard/templates', async () => {
      const html = bodyField(form, 'html');
      const input = parseWith(createTemplateSchema, {
        name: field(form, 'name') ?? '',
        alias: field(form, 'alias') ?? '',
        subject: field(form, 'subject') ?? '',
        ...(html ? { html } : {}),
      });
      const template = await createTemplate(services, c.get('principal'), input);
      recordCreated(c, 'alias', template.alias);
      return redirectTo(c, `/dashboard/templates/${template.alias}`, {
        kind: 'ok',
        text: 'Template created as a draft. Publish it to send with it.',
      });
    }),
  );
}

/** One template's page, and its actions: save the draft, publish, preview with variables. */
function addTemplateEditPages(routes: PageRoutes): void {
  const { services } = routes;

  routes.page('/templates/:alias', async (c) =>
    templatePage(c, toPublicTemplate(await getTemplate(services, c.get('principal'), param(c, 'alias'))), null),
  );

  routes.action('/templates/:alias', (c, form) => {
    const back = `/dashboard/templates/${param(c, 'alias')}`;
    return formAction(c, back, async () => {
      const changes = parseWith(updateTemplateSchema, {
        name: field(form, 'name') ?? '',
        subject: field(form, 'subject') ?? '',
        html: bodyField(form, 'html'),
        text: bodyField(form, 'text'),
        track_opens: trackingField(form, 'track_opens'),
        track_clicks: trackingField(form, 'track_clicks'),
      });
      await updateTemplate(services, c.get('principal'), param(c, 'alias'), changes);
      return redirectTo(c, back, { kind: 'ok', text: 'Draft saved. Publish it to use it in sends.' });
    });
  });

  routes.action('/templates/:alias/publish', (c) => {
    const back = `/dashboard/templates/${param(c, 'alias')}`;
    return formAction(c, back, async () => {
      const template = await publishTemplate(services, c.get('principal'), param(c, 'alias'));
      return redirectTo(c, back, { kind: 'ok', text: `Published: version ${template.published?.version ?? ''} is what sends use now.` });
    });
  });

  routes.action('/templates/:alias/preview', (c, form) =>
    formAction(c, `/dashboard/templates/${param(c, 'alias')}`, async () => {
      const text = form.get('variables')?.trim() || '{}';
      const variables = jsonField(form, 'variables', {}, 'Variables must be a JSON object, e.g. {"name": "Ada"}.');
      const input = parseWith(renderTemplateSchema, { variables });
      const principal = c.get('principal');
      const [template, result] = await Promise.all([
        getTemplate(services, principal, param(c, 'alias')),
        renderTemplatePreview(services, principal, param(c, 'alias'), input),
      ]);
      return templatePage(c, toPublicTemplate(template), { result, variables: text });
    }),
  );
}

export function addTemplatePages(routes: PageRoutes): void {
  addTemplateListPages(routes);
  addTemplateEditPages(routes);
}
