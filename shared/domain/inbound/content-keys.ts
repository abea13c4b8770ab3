/**
 * Where a received email's parts live in the mail bucket: `inbound/<inb id>/...` (the raw message stays
 * at the key the MX listener chose, `inbound/raw/<id>.eml`). Pure.
 */
export const inboundKeys = {
  raw: (rawId: string) => `inbound/raw/${rawId}.eml`,
  html: (emailId: string) => `inbound/${emailId}/body.html`,
  text: (emailId: string) => `inbound/${emailId}/body.txt`,
  headers: (emailId: string) => `inbound/${emailId}/headers.json`,
  attachment: (emailId: string, attachmentId: string) => `inbound/${emailId}/attachments/${attachmentId}`,
};
