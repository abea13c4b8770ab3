/** The operations of the reference group (Reference). */
import * as z from 'zod';
import { section } from '#shared/doors/openapi/operation';

export const referenceOps = section('reference', 'Reference', {
  getOpenApiDocument: {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document (OpenAPI 3.1)',
    auth: 'public',
    responses: {
      200: {
        description: 'The OpenAPI document.',
        schema: z.looseObject({
          openapi: z.string().describe('the OpenAPI version: 3.1.0'),
          info: z.looseObject({}).describe("the API's title, version, description and license"),
          paths: z.looseObject({}).describe('every operation, by path and method'),
        }),
      },
    },
  },
  getReferencePage: {
    method: 'get',
    path: '/reference',
    summary: 'The API reference (HTML)',
    description: 'This document as a page: every operation with its parameters, bodies, answers, error codes and examples.',
    auth: 'public',
    responses: { 200: { description: 'The reference page.', mediaType: 'text/html' } },
  },
});
