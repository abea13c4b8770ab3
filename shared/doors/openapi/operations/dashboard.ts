/** The operations of the dashboard group (Dashboard session). */
import { signInRequestSchema } from '../../../domain/dashboard/schemas';
import { section, type Operation } from '../operation';
import { sessionSchema } from '../schemas/account';
import { dryRunSchema } from '../schemas/automations';
import { okSchema } from '../schemas/common';
import { eventsOp } from './automations';
import { webhookOps } from './webhooks';

// ---------------------------------------------------------------------------------------------------
// The dashboard's JSON doors: sign-in, sign-out, session; /api/events and /api/webhooks (session cookie)

/** The same route code behind the session instead of an API key (functions/api/dashboard/api-routes.ts). */
function sessionDoor(operation: Operation): Operation {
  const name = operation.operationId;
  return {
    ...operation,
    group: 'dashboard',
    tag: 'Dashboard session',
    path: `/api${operation.path}`,
    operationId: `session${name[0]!.toUpperCase()}${name.slice(1)}`,
    auth: 'session',
    description: `${operation.path} for a browser signed in to the dashboard (its session cookie, and X-CSRF-Token on state-changing requests); an API key is not accepted here.${operation.description ? ` ${operation.description}` : ''}`,
    errors: { ...operation.errors, 403: [...new Set([...(operation.errors?.[403] ?? []), 'forbidden' as const])] },
  };
}

/** Each operation of a group behind the session, keyed by its new operationId. */
function sessionDoors(operations: Readonly<Record<string, Operation>>): Record<string, Operation> {
  return Object.fromEntries(Object.values(operations).map((operation) => {
    const door = sessionDoor(operation);
    return [door.operationId, door];
  }));
}

export const dashboardOps = section('dashboard', 'Dashboard session', {
  signIn: {
    method: 'post',
    path: '/dashboard/sign-in',
    summary: 'Sign in to the dashboard',
    description: 'Same-origin only; rate limited per email address and per client address. As JSON: the session and the `svc_session` cookie. As the sign-in page\'s form: 303 to the page it came from (or the page again with the error).',
    auth: 'public',
    body: { schema: signInRequestSchema, form: true, decodedBy: 'its handler: JSON or the sign-in page\'s form, whose errors are answered with the page again', example: { email: 'owner@acme.com', password: 'correct horse battery staple' } },
    responses: {
      200: { description: 'Signed in (JSON).', schema: sessionSchema, headers: ['setCookie'], requiredHeaders: ['setCookie'] },
      303: { description: 'Signed in (a form): to the dashboard.', headers: ['setCookie', 'location'], requiredHeaders: ['location'] },
      // The sign-in page's form is answered with the page again, showing the error, and the same status.
      ...Object.fromEntries([400, 401, 403, 429].map((status) => [status, { description: 'The form: the sign-in page again, with the error.', mediaType: 'text/html' as const }])),
    },
    errors: { 401: ['unauthorized'], 403: ['forbidden'], 429: ['rate_limited'] },
  },
  signOut: {
    method: 'post',
    path: '/dashboard/sign-out',
    summary: 'Sign out',
    auth: 'session',
    responses: {
      200: { description: 'Signed out (JSON); the cookie is cleared.', schema: okSchema, headers: ['setCookie'] },
      303: { description: 'Signed out (a form): to the sign-in page.', headers: ['setCookie', 'location'], requiredHeaders: ['location'] },
    },
    errors: { 403: ['forbidden'] },
  },
  getSession: {
    method: 'get',
    path: '/dashboard/session',
    summary: 'Who is signed in',
    description: 'The same answer as the sign-in, with the CSRF token.',
    auth: 'session',
    responses: { 200: { description: 'The session.', schema: sessionSchema } },
  },
  sessionSendEvent: sessionDoor({
    ...eventsOp,
    description: `${eventsOp.description} A session may also dry-run one automation (\`dry_run\` + \`automation_id\`): it runs even if draft or paused, delays and waits are skipped, sends are stubbed; the answer is 200 with the trace.`,
    responses: { ...eventsOp.responses, 200: { description: 'The dry run (dry_run: true).', schema: dryRunSchema } },
    errors: { ...eventsOp.errors, 404: ['not_found'] },
  }),
  ...sessionDoors(webhookOps),
});
