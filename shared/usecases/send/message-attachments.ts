/**
 * The attachments a raw message's record lists (the SMTP relay, and the resend of a relayed email), in the
 * shape an API send records them: filename, content_type, size (decoded) and content_id, read from the
 * message with the service's MIME reader (shared/domain/mime/message-attachments.ts), in the message's order.
 * The bytes stay in the message (stored whole): the refs have no blob of their own.
 *
 * So the record of a message the service composed from an API send lists what that send's record lists
 * (test/unit/smtp/composed-message-record.test.ts). Where a client's message goes beyond what an API send can
 * say, the record is bounded so the email item stays far below DynamoDB's 400 KB: at most
 * MAX_LISTED_ATTACHMENTS are listed (the message keeps them all), control characters are spaces, each
 * value is cut to 255 characters (a content type too long with its parameters is kept without them), and
 * a part without a name is listed as `attachment`.
 */
import type { AttachmentRef } from '../../domain/emails/attachments';
import { messageAttachments } from '../../domain/mime/message-attachments';

export const MAX_LISTED_ATTACHMENTS = 100;
const MAX_VALUE_LENGTH = 255;
const UNNAMED = 'attachment';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]+/g;

/** Control characters as spaces (a header's tab, a name's encoded line break), trimmed. */
const oneLine = (value: string) => value.replace(CONTROL_CHARACTERS, ' ').trim();
/** At most 255 characters (whole code points). */
const cut = (value: string) => [...value].slice(0, MAX_VALUE_LENGTH).join('');

export function attachmentsOfMessage(raw: Buffer): AttachmentRef[] {
  return messageAttachments(raw)
    .slice(0, MAX_LISTED_ATTACHMENTS)
    .map((attachment): AttachmentRef => {
      const contentType = oneLine(attachment.contentType);
      const contentId = cut(oneLine(attachment.contentId ?? ''));
      return {
        filename: cut(oneLine(attachment.filename ?? '')) || UNNAMED,
        // A type whose parameters do not fit is kept without them.
        content_type: [...contentType].length <= MAX_VALUE_LENGTH ? contentType : cut(oneLine(contentType.split(';')[0]!)),
        size: attachment.size,
        ...(contentId ? { content_id: contentId } : {}),
      };
    });
}
