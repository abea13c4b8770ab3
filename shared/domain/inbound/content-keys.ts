/**
 * Where a received email's parts live in the mail bucket: `inbound/<inb id>/...` (the raw message stays
 * at the key the MX listener chose, `inbound/raw/<id>.eml`). Pure.
 */

/**
 * Bodies (html and text together) up to this size are stored with the header list as one object, answered
 * inline by GET /received-emails/{id} whatever they hold (six times this, a body of quotes JSON-escaped twice, is
 * well under the answer's budget); larger ones each as an object of their own, which the answer may link to.
 */
export const CONTENT_OBJECT_MAX_BODY_BYTES = 256 * 1024;

/** What the content object holds. */
export interface InboundContent {
  html: string | null;
  text: string | null;
  headers: { name: string; value: string }[];
}
export const inboundKeys = {
  raw: (rawId: string) => `inbound/raw/${rawId}.eml`,
  html: (emailId: string) => `inbound/${emailId}/body.html`,
  text: (emailId: string) => `inbound/${emailId}/body.txt`,
  headers: (emailId: string) => `inbound/${emailId}/headers.json`,
  /** The html and text bodies and the header list in one JSON object (`ReceivedEmail.content_object`). */
  content: (emailId: string) => `inbound/${emailId}/content.json`,
  attachment: (emailId: string, attachmentId: string) => `inbound/${emailId}/attachments/${attachmentId}`,
};
