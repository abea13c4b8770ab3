/** The operations of the dashboard group (Dashboard session). */
import * as z from 'zod';
import {
  acceptInvitationRequestSchema,
  changeRoleRequestSchema,
  inviteRequestSchema,
  signInRequestSchema,
} from '#shared/domain/dashboard/schemas';
import { section, type Operation } from '#shared/doors/openapi/operation';
import { sessionSchema, invitationCreatedSchema, memberEnvelopeSchema, teamSchema } from './schemas';
import { dryRunSchema } from '../automations/schemas';
import { okSchema } from '#shared/doors/openapi/common-schemas';
import { eventsOp } from '../automations/operations';
import { webhookOps } from '../webhooks/operations';

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
  return Object.fromEntries(
    Object.values(operations).map((operation) => {
      const door = sessionDoor(operation);
      return [door.operationId, door];
    }),
  );
}

export const dashboardOps = section('dashboard', 'Dashboard session', {
  signIn: {
    method: 'post',
    path: '/dashboard/sign-in',
    summary: 'Sign in to the dashboard',
    description:
      "Same-origin only; rate limited per email address and per client address. As JSON: the session and the `svc_session` cookie. As the sign-in page's form: 303 to the page it came from (or the page again with the error).",
    auth: 'public',
    body: {
      schema: signInRequestSchema,
      form: true,
      decodedBy: "its handler: JSON or the sign-in page's form, whose errors are answered with the page again",
      example: { email: 'owner@acme.com', password: 'correct horse battery staple' },
    },
    responses: {
      200: { description: 'Signed in (JSON).', schema: sessionSchema, headers: ['setCookie'], requiredHeaders: ['setCookie'] },
      303: { description: 'Signed in (a form): to the dashboard.', headers: ['setCookie', 'location'], requiredHeaders: ['location'] },
      // The sign-in page's form is answered with the page again, showing the error, and the same status.
      ...Object.fromEntries(
        [400, 401, 403, 429].map((status) => [
          status,
          { description: 'The form: the sign-in page again, with the error.', mediaType: 'text/html' as const },
        ]),
      ),
    },
    errors: { 401: ['unauthorized'], 403: ['forbidden'], 429: ['rate_limited'] },
  },
  // Sign-in with the deployment's OpenID Connect provider (docs/dashboard.md, "Sign-in with OpenID Connect"):
  // browser redirects; every refusal is the sign-in page with the reason and a 4xx (503: the provider is down).
  oidcSignIn: {
    method: 'get',
    path: '/dashboard/sign-in/oidc',
    summary: 'Sign in with the OpenID Connect provider',
    description:
      'Starts an authorization code flow with PKCE (S256), state and nonce, kept server-side for 10 minutes and tied to this browser by an HttpOnly cookie, and redirects to the provider. 404 when the deployment has no provider configured.',
    auth: 'public',
    query: z.object({
      next: z.string().optional().describe('the dashboard page to open once signed in (a /dashboard path; else the emails page)'),
    }),
    responses: {
      302: {
        description: "To the provider's authorization endpoint, with the flow's cookie.",
        headers: ['setCookie', 'location'],
        requiredHeaders: ['setCookie', 'location'],
      },
      ...Object.fromEntries(
        [404, 503].map((status) => [
          status,
          {
            description: 'The sign-in page, with why (not configured; the provider unreachable or misconfigured).',
            mediaType: 'text/html' as const,
          },
        ]),
      ),
    },
    errors: { 404: ['not_found'], 503: ['service_unavailable'] },
  },
  oidcCallback: {
    method: 'get',
    path: '/dashboard/sign-in/oidc/callback',
    summary: "The OpenID Connect provider's callback",
    description:
      "Where the provider sends the browser back (the redirect URI to register at the provider). The flow this browser started is used once; the state must match, the code is exchanged with the PKCE verifier and the ID token validated (issuer, audience, nonce, signature); its email must be verified by the provider, of an allowed domain, and a member's: that member is signed in as with a password (the same session and cookie). Never creates a member. Rate limited as the password sign-in.",
    auth: 'public',
    query: z.object({
      code: z.string().optional().describe('the authorization code'),
      state: z.string().optional().describe("the flow's state, as sent to the provider"),
      iss: z.string().optional().describe("the provider's issuer (RFC 9207)"),
      error: z.string().optional().describe("the provider's error (access_denied, ...) instead of a code"),
      error_description: z.string().optional().describe("the provider's explanation of its error"),
    }),
    responses: {
      303: {
        description: 'Signed in: to the page the flow was started for, with the session cookie.',
        headers: ['setCookie', 'location'],
        requiredHeaders: ['setCookie', 'location'],
      },
      ...Object.fromEntries(
        [400, 401, 403, 404, 429, 503].map((status) => [
          status,
          {
            description:
              'The sign-in page with why: 400 no flow in this browser, expired or state mismatch; 401 the provider refused or its answer failed a check; 403 email unverified, domain not allowed or no member; 429 rate limited; 503 the provider unreachable.',
            mediaType: 'text/html' as const,
          },
        ]),
      ),
    },
    errors: {
      400: ['validation_error'],
      401: ['unauthorized'],
      403: ['forbidden'],
      404: ['not_found'],
      429: ['rate_limited'],
      503: ['service_unavailable'],
    },
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
  // Teams and roles (docs/dashboard.md): the members page's JSON doors. Every role may read; changes need
  // an owner or admin (owners: an owner), and the last owner stays (409).
  getTeam: {
    method: 'get',
    path: '/dashboard/team',
    summary: "The account's members and pending invitations",
    auth: 'session',
    responses: { 200: { description: 'Members and invitations.', schema: teamSchema } },
  },
  createInvitation: {
    method: 'post',
    creates: { param: 'id', at: 'invitation.id' },
    path: '/dashboard/team/invitations',
    summary: 'Invite an address with a role',
    description:
      'Owners and admins (an owner invitation: owners only). The answer carries the link, once: hand it to the invitee, who opens it to set a password (single use, 7 days).',
    auth: 'session',
    body: { schema: inviteRequestSchema, example: { email: 'dev@acme.com', role: 'developer' } },
    responses: { 201: { description: 'The invitation and its link.', schema: invitationCreatedSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  revokeInvitation: {
    method: 'delete',
    path: '/dashboard/team/invitations/{id}',
    summary: 'Revoke a pending invitation',
    auth: 'session',
    pathParams: { id: 'the invitation id (inv_...)' },
    responses: { 200: { description: 'Revoked: its link no longer works.', schema: okSchema } },
    errors: { 403: ['forbidden'] },
  },
  updateMember: {
    method: 'patch',
    path: '/dashboard/team/members/{id}',
    summary: "Change a member's role",
    description: 'Owners and admins; making, changing or demoting an owner needs an owner. The last owner cannot be demoted (409).',
    auth: 'session',
    pathParams: { id: "the member's user id (usr_...)" },
    body: { schema: changeRoleRequestSchema, example: { role: 'viewer' } },
    responses: { 200: { description: 'The member with its new role.', schema: memberEnvelopeSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  removeMember: {
    method: 'delete',
    path: '/dashboard/team/members/{id}',
    summary: 'Remove a member',
    description: 'Owners and admins (an owner: owners only). Its sessions end at once. The last owner cannot be removed (409).',
    auth: 'session',
    pathParams: { id: "the member's user id (usr_...)" },
    responses: { 200: { description: 'Removed.', schema: okSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  acceptInvitation: {
    method: 'post',
    path: '/dashboard/accept-invitation',
    summary: 'Accept an invitation',
    description:
      "The invitee sets a password with the link's token: the user is created in the inviting account with its role and signed in. Same-origin only. As the accept page's form: 303 to the dashboard (or the page again with the error).",
    auth: 'public',
    body: {
      schema: acceptInvitationRequestSchema,
      form: true,
      decodedBy: "its handler: JSON or the accept page's form, whose errors are answered with the page again",
      example: { token: 'q3Jx0c9-example-token-from-the-link-0000000', password: 'correct horse battery staple' },
    },
    responses: {
      200: { description: 'Accepted and signed in (JSON).', schema: sessionSchema, headers: ['setCookie'], requiredHeaders: ['setCookie'] },
      303: { description: 'Accepted (a form): to the dashboard.', headers: ['setCookie', 'location'], requiredHeaders: ['location'] },
      ...Object.fromEntries(
        [400, 403, 409].map((status) => [
          status,
          { description: 'The form: the accept page again, with the error.', mediaType: 'text/html' as const },
        ]),
      ),
    },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  sessionSendEvent: sessionDoor({
    ...eventsOp,
    description: `${eventsOp.description} A session may also dry-run one automation (\`dry_run\` + \`automation_id\`): it runs even if draft or paused, delays and waits are skipped, sends are stubbed; the answer is 200 with the trace.`,
    responses: { ...eventsOp.responses, 200: { description: 'The dry run (dry_run: true).', schema: dryRunSchema } },
    errors: { ...eventsOp.errors, 404: ['not_found'] },
  }),
  ...sessionDoors(webhookOps),
});
