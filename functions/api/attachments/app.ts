/**
 * The attachments API group: POST /attachments (an upload and its presigned PUT URL), GET
 * /attachments/{id} (status and size once uploaded). Sends reference uploads by id in `attachments`.
 * Shapes: docs/attachments.md.
 */
import type { Hono } from 'hono';
import { toPublicAttachmentUpload } from '#shared/domain/emails/attachment-upload';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { attachmentOps } from './operations';
import { createAttachmentUpload, getAttachmentUpload, type AttachmentUploadDeps } from '#shared/usecases/attachments/attachment-uploads';
import type { AuthenticateDeps } from '#shared/usecases/access/authenticate';

export type AttachmentsAppDeps = AuthenticateDeps & AttachmentUploadDeps;

export function createAttachmentsApp(deps: AttachmentsAppDeps): Hono<ApiEnv> {
  const app = createApi(deps);
  const route = routes(app);

  // Uploading is part of sending: emails:send (or full).
  route(attachmentOps.createAttachmentUpload, async (c, { body }) => {
    const { upload, put } = await createAttachmentUpload(deps, c.get('principal'), body);
    return c.json(
      {
        attachment: toPublicAttachmentUpload(upload),
        upload: { url: put.url, method: put.method, headers: put.headers, expires_at: put.expires_at },
      },
      201,
    );
  });

  route(attachmentOps.getAttachmentUpload, async (c, { params }) => {
    const upload = await getAttachmentUpload(deps, c.get('principal'), params.id);
    return c.json({ attachment: toPublicAttachmentUpload(upload) });
  });

  return app;
}
