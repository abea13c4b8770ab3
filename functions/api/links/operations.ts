/** The operations of the links group (Links). */
import * as z from 'zod';
import { section } from '#shared/doors/openapi/operation';

// ---------------------------------------------------------------------------------------------------
// Public links (no API key: the signed token is the authority)

const tokenParam = { token: 'the signed token of the link (up to 4 KB)' };

export const linkOps = section('links', 'Links', {
  unsubscribePage: {
    method: 'get',
    path: '/unsubscribe/{token}',
    summary: 'Unsubscribe confirmation page',
    description: 'No side effects (prefetchers do not unsubscribe): the page posts the confirmation back.',
    auth: 'public',
    pathParams: tokenParam,
    responses: {
      200: { description: 'The confirmation page.', mediaType: 'text/html' },
      404: { description: 'Not a valid link: a page saying so.', mediaType: 'text/html' },
    },
  },
  unsubscribe: {
    method: 'post',
    path: '/unsubscribe/{token}',
    summary: 'One-click unsubscribe (RFC 8058)',
    description:
      'Any body (mail providers post `List-Unsubscribe=One-Click`); the confirmation page posts `source=confirmation_page` and gets a page back.',
    auth: 'public',
    pathParams: tokenParam,
    responses: {
      200: {
        description: "Unsubscribed: JSON, or a page for the confirmation page's form.",
        schema: z.strictObject({ unsubscribed: z.literal(true).describe('always true: the address is unsubscribed') }),
        mediaType: 'text/html',
        example: { unsubscribed: true },
      },
    },
  },
  trackOpen: {
    method: 'get',
    path: '/t/open/{token}',
    summary: 'Open-tracking pixel',
    auth: 'public',
    pathParams: tokenParam,
    responses: { 200: { description: 'A transparent 1x1 GIF; the open is recorded.', mediaType: 'image/gif' } },
  },
  trackClick: {
    method: 'get',
    path: '/t/click/{token}',
    summary: 'Click-tracking redirect',
    auth: 'public',
    pathParams: tokenParam,
    responses: {
      302: { description: 'To the signed URL (only); the click is recorded.', headers: ['location'], requiredHeaders: ['location'] },
    },
  },
});
