/** The operations of the templates group (Templates). */
import {
  createTemplateSchema,
  listTemplatesQuerySchema,
  renderTemplateQuerySchema,
  renderTemplateSchema,
  updateTemplateSchema,
} from '#shared/domain/templates/schemas';
import * as ex from '#shared/doors/openapi/examples';
import { section } from '#shared/doors/openapi/operation';
import { listOf, okSchema } from '#shared/doors/openapi/common-schemas';
import { templateEnvelopeSchema, templatePreviewSchema, templateSummarySchema } from './schemas';
import { page } from '#shared/doors/openapi/page-description';

const aliasParam = { alias: 'the template alias' };
const templateRead = ['templates:write', 'account:read'] as const;

export const templateOps = section('templates', 'Templates', {
  createTemplate: {
    method: 'post',
    creates: { param: 'alias', at: 'template.alias' },
    path: '/templates',
    summary: 'Create a template (a draft)',
    auth: 'apiKey',
    scopes: ['templates:write'],
    body: {
      schema: createTemplateSchema,
      example: {
        name: 'Welcome',
        alias: 'welcome',
        subject: 'Welcome, {{first_name}}',
        html: '<p>Hi {{first_name}}, welcome aboard.</p>',
        variables: [{ key: 'first_name', type: 'string', fallback_value: 'there' }],
      },
    },
    responses: {
      201: {
        description: 'The template.',
        schema: templateEnvelopeSchema,
        example: {
          template: { ...ex.exampleTemplate, status: 'draft', published_at: null, has_unpublished_changes: true, published_version: null },
        },
      },
    },
    errors: { 403: ['forbidden', 'limit_exceeded'], 409: ['conflict'] },
  },
  listTemplates: {
    method: 'get',
    path: '/templates',
    summary: 'List templates',
    description: page('Templates (without bodies)'),
    auth: 'apiKey',
    scopes: [...templateRead],
    query: listTemplatesQuerySchema,
    responses: { 200: { description: 'A page of templates.', schema: listOf('templates', templateSummarySchema) } },
    errors: { 403: ['forbidden'] },
  },
  getTemplate: {
    method: 'get',
    path: '/templates/{alias}',
    summary: 'Retrieve a template',
    auth: 'apiKey',
    scopes: [...templateRead],
    pathParams: aliasParam,
    responses: {
      200: { description: 'The template (its draft).', schema: templateEnvelopeSchema, example: { template: ex.exampleTemplate } },
    },
    errors: { 403: ['forbidden'] },
  },
  updateTemplate: {
    method: 'patch',
    path: '/templates/{alias}',
    summary: "Edit a template's draft",
    description: 'Sends keep using the published version until the next publish.',
    auth: 'apiKey',
    scopes: ['templates:write'],
    pathParams: aliasParam,
    body: { schema: updateTemplateSchema, example: { subject: 'Welcome to Acme, {{first_name}}' } },
    responses: { 200: { description: 'The template after the change.', schema: templateEnvelopeSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  deleteTemplate: {
    method: 'delete',
    path: '/templates/{alias}',
    summary: 'Delete a template',
    auth: 'apiKey',
    scopes: ['templates:write'],
    pathParams: aliasParam,
    responses: { 200: { description: 'Deleted.', schema: okSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  publishTemplate: {
    method: 'post',
    path: '/templates/{alias}/publish',
    summary: 'Publish the draft',
    auth: 'apiKey',
    scopes: ['templates:write'],
    pathParams: aliasParam,
    responses: { 200: { description: 'The template, its draft now the published version.', schema: templateEnvelopeSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  renderTemplate: {
    method: 'post',
    path: '/templates/{alias}/render',
    summary: 'Render a template without sending',
    description:
      'The draft (default) or the published version (`?version=published`) with the given values; an empty body renders without values.',
    auth: 'apiKey',
    scopes: [...templateRead],
    pathParams: aliasParam,
    query: renderTemplateQuerySchema,
    body: { schema: renderTemplateSchema, optional: true, example: { variables: { first_name: 'Ada' } } },
    responses: {
      200: {
        description: 'The rendered subject and bodies, with warnings.',
        schema: templatePreviewSchema,
        example: { subject: 'Welcome, Ada', html: '<p>Hi Ada, welcome aboard.</p>', text: null, warnings: [] },
      },
    },
    errors: { 403: ['forbidden'], 409: ['conflict'], 422: ['validation_error'] },
  },
});
