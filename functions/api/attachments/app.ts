/**
 * The attachments API group: POST /attachments (an upload and its presigned PUT URL), GET
 * /attachments/{id} (status and size once uploaded). Sends reference uploads by id in `attachments`.
 * Shapes: docs/attachments.md.
 */
import type { Hono } from 'hono';
import { createAttachmentUploadSchema, toPublicAttachmentUpload } from '../../../shared/domain/emails/attachment-upload';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { jsonBody } from '../../../shared/http/validate';
import { createAttachmentUpload, getAttachmentUpload, type AttachmentUploadDeps } from '../../../shared/usecases/attachment-uploads';
import type { AuthenticateDeps } from '../../../shared/usecases/authenticate';

export type AttachmentsAppDeps = AuthenticateDeps & AttachmentUploadDeps;

export function createAttachmentsApp(deps: AttachmentsAppDeps): Hono<ApiEnv> {
  const app = createApi(deps);

  // Uploading is part of sending: emails:send (or full).
  app.post('/attachments', requireScope('emails:send'), async (c) => {
    const input = await jsonBody(c, createAttachmentUploadSchema);
    const { upload, put } = await createAttachmentUpload(deps, c.get('principal'), input);
    return c.json(
      {
        attachment: toPublicAttachmentUpload(upload),
        upload: { url: put.url, method: put.method, headers: put.headers, expires_at: put.expires_at },
      },
      201,
    );
  });

  app.get('/attachments/:id', requireScope('emails:send'), async (c) => {
    const upload = await getAttachmentUpload(deps, c.get('principal'), c.req.param('id'));
    return c.json({ attachment: toPublicAttachmentUpload(upload) });
  });

  return app;
}
