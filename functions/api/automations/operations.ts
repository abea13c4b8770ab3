/** The operations of the automations group (Automations). */
import {
  automationActionSchema,
  createAutomationSchema,
  listAutomationsQuerySchema,
  updateAutomationSchema,
} from '#shared/domain/automations/schemas';
import { eventRequestSchema } from '#shared/domain/automations/event-request';
import { listRunsQuerySchema } from '#shared/domain/automations/run-view';
import * as ex from '#shared/doors/openapi/examples';
import { op, section } from '#shared/doors/openapi/operation';
import { automationEnvelopeSchema, automationSchema, eventAcceptedSchema, runEnvelopeSchema, runSummarySchema } from './schemas';
import { listOf, okSchema } from '#shared/doors/openapi/common-schemas';
import { page } from '#shared/doors/openapi/page-description';

// ---------------------------------------------------------------------------------------------------
// Automations and events (also the dashboard's /api/events)

const autoParam = { id: 'the automation id (auto_...)' };
export const eventsOp = op({
  group: 'automations',
  tag: 'Events',
  method: 'post',
  path: '/events',
  operationId: 'sendEvent',
  summary: 'Send a custom event',
  description:
    "Starts runs of active automations whose trigger is the event's name, resumes runs waiting for it and cancels runs whose trigger lists it in cancel_on_events. Any key that may send may post events; a key limited to a tenant may not.",
  auth: 'apiKey',
  scopes: ['emails:send'],
  requestHeaders: ['idempotencyKey'],
  body: {
    schema: eventRequestSchema,
    decodedBy: 'its handler: the Idempotency-Key fingerprint is of the body as sent',
    example: ex.exampleEvent,
  },
  responses: {
    202: {
      description: 'Accepted.',
      schema: eventAcceptedSchema,
      example: {
        event: { id: ex.id('ae'), ...ex.exampleEvent, source: 'api', created_at: '2026-11-23T09:30:00.000Z' },
        matched_automations: 1,
        resumed_runs: 0,
        cancelled_runs: 0,
      },
    },
  },
  errors: { 403: ['forbidden'], 409: ['idempotency_conflict'], 503: ['service_unavailable'] },
});

export const automationOps = section('automations', 'Automations', {
  sendEvent: eventsOp,
  createAutomation: {
    method: 'post',
    creates: { param: 'id', at: 'automation.id' },
    path: '/automations',
    summary: 'Create an automation',
    description: 'A draft unless `status: active`. Every save validates the whole definition.',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    body: { schema: createAutomationSchema, example: ex.exampleAutomationRequest },
    responses: { 201: { description: 'The automation.', schema: automationEnvelopeSchema, example: { automation: ex.exampleAutomation } } },
    errors: { 403: ['forbidden', 'limit_exceeded', 'domain_not_allowed'] },
  },
  listAutomations: {
    method: 'get',
    path: '/automations',
    summary: 'List automations',
    description: `${page('Automations')} Filter: \`status\`.`,
    auth: 'apiKey',
    scopes: ['account:read'],
    query: listAutomationsQuerySchema,
    responses: { 200: { description: 'A page of automations.', schema: listOf('automations', automationSchema) } },
    errors: { 403: ['forbidden'] },
  },
  getAutomation: {
    method: 'get',
    path: '/automations/{id}',
    summary: 'Retrieve an automation',
    auth: 'apiKey',
    scopes: ['account:read'],
    pathParams: autoParam,
    responses: { 200: { description: 'The automation.', schema: automationEnvelopeSchema, example: { automation: ex.exampleAutomation } } },
    errors: { 403: ['forbidden'] },
  },
  updateAutomation: {
    method: 'patch',
    path: '/automations/{id}',
    summary: 'Change an automation',
    description: 'Any of name, trigger, steps (each replaced whole). Runs under way keep the version they started with.',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: autoParam,
    body: { schema: updateAutomationSchema, example: { name: 'Welcome series (v2)' } },
    responses: { 200: { description: 'The automation after the change.', schema: automationEnvelopeSchema } },
    errors: { 403: ['forbidden', 'domain_not_allowed'], 409: ['conflict'] },
  },
  deleteAutomation: {
    method: 'delete',
    path: '/automations/{id}',
    summary: 'Delete an automation',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: autoParam,
    responses: { 200: { description: 'Deleted.', schema: okSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  changeAutomationStatus: {
    method: 'post',
    path: '/automations/{id}',
    summary: 'Activate or pause an automation',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: autoParam,
    body: { schema: automationActionSchema, example: { action: 'activate' } },
    responses: { 200: { description: 'The automation with its new status.', schema: automationEnvelopeSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  listAutomationRuns: {
    method: 'get',
    path: '/automations/{id}/runs',
    summary: "List an automation's runs",
    description: `${page('Runs')} Filter: \`status\`.`,
    auth: 'apiKey',
    scopes: ['account:read'],
    pathParams: autoParam,
    query: listRunsQuerySchema,
    responses: {
      200: {
        description: 'A page of runs.',
        schema: listOf('runs', runSummarySchema),
        example: { runs: [ex.exampleRunSummary], has_more: false, next_cursor: null },
      },
    },
    errors: { 403: ['forbidden'] },
  },
  getAutomationRun: {
    method: 'get',
    path: '/automations/{id}/runs/{run_id}',
    summary: 'Retrieve a run',
    auth: 'apiKey',
    scopes: ['account:read'],
    pathParams: { ...autoParam, run_id: 'the run id (run_...)' },
    responses: { 200: { description: 'The run with every step it took.', schema: runEnvelopeSchema } },
    errors: { 403: ['forbidden'] },
  },
});
