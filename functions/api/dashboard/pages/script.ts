/**
 * The dashboard's one script (served by ./assets.ts at a content-hashed URL; `script-src 'self'`, no
 * inline script): progressive enhancement only, every page works without it. It
 *
 * 1. shows the credential fields of the DNS host chosen on the domain page (without it both sets show,
 *    labelled);
 * 2. adds a "Copy" button beside a secret shown once;
 * 3. sends the actions that have a session door (forms with `data-door`: ./doors.ts) to the door instead
 *    of the page action: `fetch` POST, same origin (`connect-src 'self'`), JSON, the form's CSRF token in
 *    `X-CSRF-Token`; the answer is shown in the page (the dry run's trace; a replayed delivery's status),
 *    and what happened as text in a live region the script adds right after the form: the success
 *    sentence, or a refusal as the error envelope's message, each field's problem and the hint, as the
 *    pages' own errors read (./forms.ts `errorText`); a network failure and an ended session (401, with
 *    a sign-in link back to the page) say so.
 *
 * It builds every element with the DOM (`textContent`, `setAttribute`), never from markup, so what an
 * answer holds (a stranger's event data, a rendered subject) is text. The trace, badges and error text are
 * drawn here as well as by the server (./automations.ts `traceSection`, ./layout.ts, ./forms.ts
 * `errorText`) because the door answers the API's JSON (the same route as POST /events) and a dry run's
 * trace is stored nowhere a page could render it from; the statuses' tones are shared (./status-tones.ts)
 * and a browser test holds the two traces equal. Kinds (`data-door-kind`):
 *
 *   dry-run  the automation page's "Dry run" form -> POST /api/events {name, email?, user_id?, data,
 *            dry_run: true, automation_id}; the trace replaces #dry-run-trace (as ./automations.ts draws it)
 *   replay   a delivery's "Replay" -> POST /api/webhooks/{id}/deliveries/{delivery_id}/replay; the
 *            delivery's status and next attempt (#delivery-status, #delivery-next) are updated
 */
import { BAD_STATUSES, GOOD_STATUSES } from './status-tones';

export const APP_JS = `
(function () {
'use strict';
var host = document.getElementById('dns-host');
if (host) {
  var showHost = function () { document.querySelectorAll('[data-host]').forEach(function (e) { e.hidden = e.getAttribute('data-host') !== host.value; }); };
  host.addEventListener('change', showHost);
  showHost();
}
document.querySelectorAll('[data-copy]').forEach(function (e) {
  if (!navigator.clipboard) return;
  var b = document.createElement('button');
  b.type = 'button'; b.className = 'secondary'; b.textContent = 'Copy';
  b.addEventListener('click', function () { navigator.clipboard.writeText(e.textContent).then(function () { b.textContent = 'Copied'; }); });
  e.insertAdjacentElement('afterend', b);
});

var GOOD = ${JSON.stringify(GOOD_STATUSES)}, BAD = ${JSON.stringify(BAD_STATUSES)};
function el(tag, attributes, children) {
  var e = document.createElement(tag);
  Object.keys(attributes).forEach(function (name) { e.setAttribute(name, attributes[name]); });
  (children || []).forEach(function (child) { if (child !== '' && child !== null && child !== undefined && child !== false) e.append(child); });
  return e;
}
function badge(status) {
  var tone = GOOD.indexOf(status) >= 0 ? 'good' : BAD.indexOf(status) >= 0 ? 'bad' : 'wait';
  return el('span', { class: 'status ' + tone }, [String(status).replace(/_/g, ' ')]);
}
function time(iso) {
  return iso ? el('time', { datetime: iso }, [iso.replace('T', ' ').replace(/\\.\\d+Z$|Z$/, ' UTC')]) : el('span', { class: 'muted' }, ['\\u2014']);
}
function say(area, kind, parts) {
  area.replaceChildren(el('p', kind === 'error' ? { class: 'error', role: 'alert' } : { class: 'ok' }, parts));
}

function Problem(parts) { this.parts = parts; }
function problemOf(status, answer) {
  if (status === 401) return new Problem(['Your session has ended: ', el('a', { href: '/dashboard/sign-in?next=' + encodeURIComponent(location.pathname) }, ['sign in again']), ', then retry.']);
  var e = answer && answer.error;
  if (!e || typeof e.message !== 'string') return new Problem(['The dashboard answered ' + status + ' without an explanation. Try again; if it keeps happening, check the service logs.']);
  var fields = (e.details && Array.isArray(e.details.fields) ? e.details.fields : []).map(function (f) { return f.field + ': ' + f.message; }).join('; ');
  return new Problem([[e.message, fields && e.message.indexOf(fields) < 0 ? fields : '', e.hint || ''].filter(Boolean).join(' ')]);
}
async function send(form, body) {
  var token = form.querySelector('input[name=csrf_token]');
  var response;
  try {
    response = await fetch(form.getAttribute('data-door'), { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token ? token.value : '' }, body: JSON.stringify(body) });
  } catch (error) {
    throw new Problem(['Could not reach the dashboard (' + error.message + '). Check the connection and try again.']);
  }
  var answer = await response.json().catch(function () { return null; });
  if (!response.ok) throw problemOf(response.status, answer);
  return answer;
}

function traceSection(trace) {
  var summary = el('p', {}, ['Event ', el('code', {}, [trace.event.name]), trace.matches_trigger ? '' : ' ', trace.matches_trigger ? '' : el('strong', {}, ["(not this automation's trigger: it ran anyway)"]),
    '; result: ', badge(trace.status), trace.ended_early ? ' (a condition ended the run)' : '', trace.error ? ' \\u2014 ' + trace.error : '', '. Nothing was sent or written.']);
  var steps = el('ol', { class: 'timeline', 'aria-label': 'Dry run steps' }, trace.steps.map(function (step) {
    return el('li', {}, [el('strong', {}, [step.key]), ' ', el('span', { class: 'muted' }, ['(' + step.type.replace(/_/g, ' ') + ')']), ': ', badge(step.status), step.error ? ' \\u2014 ' + step.error : '',
      step.output ? el('details', {}, [el('summary', {}, ['Output']), el('pre', {}, [JSON.stringify(step.output, null, 2)])]) : '']);
  }));
  return el('section', { 'aria-labelledby': 'trace-heading' }, [el('h2', { id: 'trace-heading', tabindex: '-1' }, ['Dry run trace']), summary, steps]);
}

var KINDS = {
  'dry-run': {
    body: function (form) {
      var value = function (name) { var e = form.elements.namedItem(name); return e ? e.value.trim() : ''; };
      var data = {};
      if (value('data')) {
        try { data = JSON.parse(value('data')); } catch (error) { throw new Problem(['Event data (JSON) is not valid JSON: ' + error.message + '.']); }
      }
      var body = { name: value('name'), data: data, dry_run: true, automation_id: form.getAttribute('data-automation-id') };
      if (value('email')) body.email = value('email');
      if (value('user_id')) body.user_id = value('user_id');
      return body;
    },
    show: function (answer) {
      var target = document.getElementById('dry-run-trace');
      if (!target) return;
      target.replaceChildren(traceSection(answer));
      target.querySelector('h2').focus();
    },
  },
  replay: {
    body: function () { return {}; },
    show: function (answer) {
      var status = document.getElementById('delivery-status'), next = document.getElementById('delivery-next');
      if (status) status.replaceChildren(badge(answer.delivery.status));
      if (next) next.replaceChildren(time(answer.delivery.next_attempt_at));
    },
  },
};

document.querySelectorAll('form[data-door]').forEach(function (form) {
  var kind = KINDS[form.getAttribute('data-door-kind')];
  if (!kind || !window.fetch) return;
  // Where the form's messages go: a live region right after it (or after its row of actions), in view.
  var area = el('div', { class: 'flash', 'aria-live': 'polite' }, []);
  (form.closest('.actions') || form).insertAdjacentElement('afterend', area);
  form.addEventListener('submit', async function (event) {
    event.preventDefault();
    if (form.getAttribute('aria-busy') === 'true') return;
    var button = form.querySelector('button[type=submit]');
    form.setAttribute('aria-busy', 'true');
    if (button) button.disabled = true;
    try {
      var answer = await send(form, kind.body(form));
      say(area, 'ok', [form.getAttribute('data-done')]);
      kind.show(answer);
    } catch (error) {
      say(area, 'error', error instanceof Problem ? error.parts : ['Something went wrong in the page (' + error + '). Reload it and try again.']);
    } finally {
      form.removeAttribute('aria-busy');
      if (button) button.disabled = false;
    }
  });
});
})();
`.trim();
