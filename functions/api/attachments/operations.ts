/** The operations of the attachments group (Attachments). */
import { createAttachmentUploadSchema } from '#shared/domain/emails/attachment-upload';
import { section } from '#shared/doors/openapi/operation';
import { attachmentCreatedSchema, attachmentEnvelopeSchema } from './schemas';

export const attachmentOps = section('attachments', 'Attachments', {
  createAttachmentUpload: {
    method: 'post',
    path: '/attachments',
    summary: 'Start an attachment upload',
    description:
      'For files too large for a request (a request is at most 6 MB): returns an `att_` id and a presigned S3 PUT URL (15 minutes). PUT the bytes there, then reference `{"attachment_id": "att_..."}` in a send within 24 hours.',
    auth: 'apiKey',
    scopes: ['emails:send'],
    body: { schema: createAttachmentUploadSchema, example: { filename: 'report.pdf', content_type: 'application/pdf', size: 8_400_000 } },
    responses: { 201: { description: 'The upload and where to PUT the file.', schema: attachmentCreatedSchema } },
  },
  getAttachmentUpload: {
    method: 'get',
    path: '/attachments/{id}',
    summary: 'Retrieve an attachment upload',
    auth: 'apiKey',
    scopes: ['emails:send'],
    pathParams: { id: 'the upload id (att_...)' },
    responses: { 200: { description: 'Its status (pending_upload, uploaded, too_large) and size.', schema: attachmentEnvelopeSchema } },
  },
});
