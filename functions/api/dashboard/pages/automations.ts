/**
 * Automations: the list and a create form (the definition as JSON, as POST /automations takes it); one
 * automation's page with its trigger, steps, Activate/Pause, its runs, and the dry run (the spec's
 * dashboard-only `POST /events {dry_run, automation_id}`, through the same acceptEvent use case with the
 * session's principal), whose trace is rendered step by step. With script, the dry run goes through the
 * session door POST /api/events instead (./doors.ts, ./script.ts) and the trace is drawn in the page.
 * Use cases: createAutomation, listAutomations, getAutomation, changeAutomationStatus, listAutomationRuns,
 * acceptEvent.
 */
import { toPublicAutomation, type Step } from '#shared/domain/automations/automation';
import { eventRequestSchema } from '#shared/domain/automations/event-request';
import { toRunSummary } from '#shared/domain/automations/run-view';
import { createAutomationSchema } from '#shared/domain/automations/schemas';
import { parseWith } from '#shared/doors/http/request-validation';
import type { AutomationDryRun } from '#shared/usecases/automations/automation-dry-run';
import { listAutomationRuns } from '#shared/usecases/automations/automation-runs';
import { changeAutomationStatus, createAutomation, getAutomation, listAutomations } from '#shared/usecases/automations/automations';
import { acceptEvent } from '#shared/usecases/automations/runs/accept-event';
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
  textarea,
  type PageContext,
  param,
} from './forms';
import { doorAttributes } from './doors';
import type { PageRoutes } from './page-routes';
import type { DashboardServices } from '../services';
import { badge, html, json, table, time, type Html } from './layout';
import { recordCreated } from '#shared/doors/http/created-ids';

const EXAMPLE = json({
  name: 'Welcome series',
  trigger: { event: 'user.created' },
  steps: [
    {
      key: 'welcome',
      type: 'send_email',
      from: 'Acme <hello@sandbox.mailservice.dev>',
      subject: 'Welcome, {{event.data.first_name}}',
      text: 'Hi {{event.data.first_name}}, thanks for joining.',
    },
    { key: 'wait', type: 'delay', duration: '2 days' },
    { key: 'is-pro', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'pro' },
    { key: 'pro-tips', type: 'send_email', from: 'Acme <hello@sandbox.mailservice.dev>', subject: 'Tips for your plan', text: '...' },
  ],
});

/** What a step does, in a line. */
function stepSummary(step: Step): string {
  switch (step.type) {
    case 'send_email':
      return step.template
        ? `sends template ${step.template.id} to ${step.to.join(', ')}`
        : `sends "${step.subject ?? ''}" to ${step.to.join(', ')}`;
    case 'delay':
      return `waits ${step.duration}`;
    case 'wait_for_event':
      return `waits for ${step.event} (at most ${step.timeout}; then ${step.on_timeout})`;
    case 'condition':
      return `continues only if ${JSON.stringify(Object.fromEntries(Object.entries(step).filter(([key]) => !['key', 'type', 'next'].includes(key))))}`;
  }
}

/** What the page says once the page script has the door's trace (the form's answer is the trace itself). */
const DRY_RUN_DONE = 'Dry run finished: its trace is shown above the steps.';

/** The trace (the page script draws the door's answer the same way: ./script.ts `traceSection`; test/browser holds them equal). */
function traceSection(trace: AutomationDryRun): Html {
  return html`<section aria-labelledby="trace-heading"><h2 id="trace-heading">Dry run trace</h2>
<p>Event <code>${trace.event.name}</code>${trace.matches_trigger ? '' : html` <strong>(not this automation's trigger: it ran anyway)</strong>`}; result: ${badge(trace.status)}${trace.ended_early ? ' (a condition ended the run)' : ''}${trace.error ? html` — ${trace.error}` : ''}. Nothing was sent or written.</p>
<ol class="timeline" aria-label="Dry run steps">${trace.steps.map(
    (step) =>
      html`<li><strong>${step.key}</strong> <span class="muted">(${step.type.replace(/_/g, ' ')})</span>: ${badge(step.status)}${step.error ? html` — ${step.error}` : ''}${step.output ? html`<details><summary>Output</summary><pre>${json(step.output)}</pre></details>` : ''}</li>`,
  )}</ol></section>`;
}

/** The automation `id` and a page of its runs, read together (each use case checks the automation is the account's). */
async function automationPage(
  services: DashboardServices,
  c: PageContext,
  id: string,
  dryRun: { trace: AutomationDryRun; form: URLSearchParams } | null,
): Promise<Response> {
  const state = dryRun ? {} : pageState(c);
  const principal = c.get('principal');
  const [found, runs] = await Promise.all([
    getAutomation(services, principal, id),
    listAutomationRuns(services, principal, id, pageRequest(state)),
  ]);
  const automation = toPublicAutomation(found);
  const runRows = runs.items
    .map(toRunSummary)
    .map(
      (run) =>
        html`<tr><td>${badge(run.status)}</td><td>${time(run.created_at)}</td><td class="num">${run.steps_completed}</td><td>${run.current_step ? `${run.current_step.key} (${run.current_step.state})` : ''}</td><td>${run.event.email ?? run.event.user_id ?? ''}</td><td>${run.error ?? ''}</td></tr>`,
    );
  const form = dryRun?.form;
  // The session door (POST /api/events) when the page script runs; the page action without it.
  const door = doorAttributes({ route: '/events', kind: 'dry-run', done: DRY_RUN_DONE, data: { 'automation-id': automation.id } });
  const dryRunForm = postForm(
    c,
    `/dashboard/automations/${automation.id}/dry-run`,
    html`<div class="fields">${input('Event name', 'name', { value: form?.get('name') ?? automation.trigger.event, required: true })}${input('Email', 'email', { type: 'email', value: form?.get('email') ?? c.get('principal').account.email })}${input('User ID', 'user_id', { value: form?.get('user_id') ?? '' })}</div>${textarea('Event data (JSON)', 'data', { value: form?.get('data') ?? '{}', rows: 4, hint: 'A JSON object; conditions and {{event.data.*}} read it.' })}<p><button type="submit">Dry run</button></p>`,
    door,
  );
  const body = html`<dl class="facts"><dt>Status</dt><dd>${badge(automation.status)}</dd><dt>Trigger</dt><dd><code>${automation.trigger.event}</code>${automation.trigger.cancel_on_events.length ? html` (cancelled by ${automation.trigger.cancel_on_events.join(', ')})` : ''}</dd><dt>Version</dt><dd>${automation.version}</dd><dt>Updated</dt><dd>${time(automation.updated_at)}</dd></dl>
<div class="actions">${automation.status === 'active' ? buttonForm(c, `/dashboard/automations/${automation.id}/status`, 'Pause', { className: 'secondary', hidden: { action: 'pause' } }) : buttonForm(c, `/dashboard/automations/${automation.id}/status`, 'Activate', { hidden: { action: 'activate' } })}</div>
<div id="dry-run-trace">${dryRun ? traceSection(dryRun.trace) : ''}</div>
<section aria-labelledby="steps-heading"><h2 id="steps-heading">Steps</h2><ol>${automation.steps.map(
    (step) =>
      html`<li><strong>${step.key}</strong> <span class="muted">(${step.type.replace(/_/g, ' ')})</span>: ${stepSummary(step)}${step.next ? `; then ${step.next}` : ''}</li>`,
  )}</ol></section>
<section aria-labelledby="dry-run-heading"><h2 id="dry-run-heading">Dry run</h2><p class="hint">Runs this automation for an event you describe, whatever its status: delays and waits are skipped, emails are shown, not sent, and nothing is written.</p>${dryRunForm}</section>
<section aria-labelledby="runs-heading"><h2 id="runs-heading">Runs</h2>${table('Runs, newest first', ['Status', 'Started', 'Steps', 'Current step', 'For', 'Error'], runRows, 'No runs yet.')}
${pager(`/dashboard/automations/${automation.id}`, {}, state, runs.next_cursor)}</section>`;
  return render(c, { title: automation.name, lead: html`<p><a href="/dashboard/automations">← All automations</a></p>`, body });
}

/** The automations, newest first, and the create form (the definition as JSON). */
async function automationListPage(services: DashboardServices, c: PageContext): Promise<Response> {
  const state = pageState(c);
  const page = await listAutomations(services, c.get('principal'), pageRequest(state));
  const rows = page.items
    .map(toPublicAutomation)
    .map(
      (automation) =>
        html`<tr><td><a href="/dashboard/automations/${automation.id}">${automation.name}</a></td><td>${badge(automation.status)}</td><td><code>${automation.trigger.event}</code></td><td class="num">${automation.steps.length}</td><td>${time(automation.updated_at)}</td></tr>`,
    );
  const body = html`${table('Automations, newest first', ['Name', 'Status', 'Trigger', 'Steps', 'Updated'], rows, 'No automations yet.')}
${pager('/dashboard/automations', {}, state, page.next_cursor)}
<section aria-labelledby="create-heading"><h2 id="create-heading">Create an automation</h2>${postForm(
    c,
    '/dashboard/automations',
    html`${textarea('Definition (JSON)', 'definition', { value: EXAMPLE, rows: 16, hint: 'As POST /automations takes it (docs/automations.md). It starts as a draft unless "status": "active".' })}<p><button type="submit">Create automation</button></p>`,
  )}</section>`;
  return render(c, { title: 'Automations', body });
}

/** The list and the create action. */
function addAutomationListPages(routes: PageRoutes): void {
  const { services } = routes;

  routes.page('/automations', (c) => automationListPage(services, c));

  routes.action('/automations', (c, form) =>
    formAction(c, '/dashboard/automations', async () => {
      const input = parseWith(createAutomationSchema, jsonField(form, 'definition', {}));
      const automation = await createAutomation(services, c.get('principal'), input);
      recordCreated(c, 'id', automation.id);
      return redirectTo(c, `/dashboard/automations/${automation.id}`, { kind: 'ok', text: `Automation created (${automation.status}).` });
    }),
  );
}

/** One automation's page, and its actions: Activate/Pause, the dry run (its answer: the page with the trace). */
function addAutomationDetailPages(routes: PageRoutes): void {
  const { services } = routes;

  routes.page('/automations/:id', (c) => automationPage(services, c, param(c, 'id'), null));

  routes.action('/automations/:id/status', (c, form) => {
    const back = `/dashboard/automations/${param(c, 'id')}`;
    return formAction(c, back, async () => {
      const action = field(form, 'action') === 'pause' ? 'pause' : 'activate';
      const automation = await changeAutomationStatus(services, c.get('principal'), param(c, 'id'), action);
      return redirectTo(c, back, { kind: 'ok', text: `Automation ${automation.status}.` });
    });
  });

  routes.action('/automations/:id/dry-run', (c, form) =>
    formAction(c, `/dashboard/automations/${param(c, 'id')}`, async () => {
      const principal = c.get('principal');
      const request = parseWith(eventRequestSchema, {
        name: field(form, 'name') ?? '',
        ...(field(form, 'email') ? { email: field(form, 'email') } : {}),
        ...(field(form, 'user_id') ? { user_id: field(form, 'user_id') } : {}),
        data: jsonField(form, 'data', {}),
        dry_run: true,
        automation_id: param(c, 'id'),
      });
      const result = await acceptEvent(services, principal, request);
      if (!('dry_run' in result)) throw new Error('a dry-run request did not dry-run');
      return automationPage(services, c, param(c, 'id'), { trace: result, form });
    }),
  );
}

export function addAutomationPages(routes: PageRoutes): void {
  addAutomationListPages(routes);
  addAutomationDetailPages(routes);
}
