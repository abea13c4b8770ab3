/** The operations of the received-emails group (Received emails). */
import { listReceivedEmailsQuerySchema } from '#shared/domain/inbound/schemas';
import * as ex from '#shared/doors/openapi/examples';
import { section } from '#shared/doors/openapi/operation';
import { listOf } from '#shared/doors/openapi/common-schemas';
import { receivedEmailEnvelopeSchema, receivedEmailSummarySchema } from './schemas';
import { page } from '#shared/doors/openapi/page-description';

export const receivedEmailOps = section('received-emails', 'Received emails', {
  listReceivedEmails: {
    method: 'get',
    path: '/received-emails',
    summary: 'List received (inbound) emails',
    description: `${page('Received email')} Filters: \`to\`, \`from\`, \`since\`. Items have no bodies, headers or links.`,
    auth: 'apiKey',
    scopes: ['account:read'],
    query: listReceivedEmailsQuerySchema,
    responses: {
      200: {
        description: 'A page of received emails.',
        schema: listOf('received_emails', receivedEmailSummarySchema),
        example: { received_emails: [ex.exampleReceivedEmail], has_more: false, next_cursor: null },
      },
    },
    errors: { 403: ['forbidden'] },
  },
  getReceivedEmail: {
    method: 'get',
    path: '/received-emails/{id}',
    summary: 'Retrieve a received email',
    description:
      'Bodies, headers and attachments (base64) inline while the answer stays small; larger ones and the raw message as presigned URLs (1 hour).',
    auth: 'apiKey',
    scopes: ['account:read'],
    pathParams: { id: 'the received email id (inb_...)' },
    responses: { 200: { description: 'The received email, whole.', schema: receivedEmailEnvelopeSchema } },
    errors: { 403: ['forbidden'] },
  },
});
