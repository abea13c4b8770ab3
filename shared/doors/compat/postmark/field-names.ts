/**
 * Our send request's field names as Postmark names them, so a 422's Message points at the field the
 * caller wrote (`To`, `HtmlBody`, `Attachments[0].Name`, `TemplateModel.name`), not at ours.
 */
const TOP_LEVEL: Readonly<Record<string, string>> = {
  from: 'From',
  to: 'To',
  cc: 'Cc',
  bcc: 'Bcc',
  reply_to: 'ReplyTo',
  subject: 'Subject',
  html: 'HtmlBody',
  text: 'TextBody',
  headers: 'Headers',
  tags: 'Tag/Metadata',
  category: 'MessageStream',
  attachments: 'Attachments',
  template: 'TemplateAlias',
  '(body)': '(body)',
};

const ATTACHMENT_FIELDS: Readonly<Record<string, string>> = {
  filename: 'Name',
  data: 'Content',
  content_type: 'ContentType',
  content_id: 'ContentID',
};

/** `to.1` -> `To`, `attachments.0.filename` -> `Attachments[0].Name`, `template.variables.x` -> `TemplateModel.x`. */
export function fromOurField(field: string): string {
  const [head = '', ...rest] = field.split('.');
  if (head === 'attachments' && rest.length >= 1 && /^\d+$/.test(rest[0]!)) {
    const inner = rest[1] === undefined ? '' : `.${ATTACHMENT_FIELDS[rest[1]] ?? rest[1]}`;
    return `Attachments[${rest[0]}]${inner}`;
  }
  if (head === 'template') {
    if (rest[0] === 'variables') return rest.length > 1 ? `TemplateModel.${rest.slice(1).join('.')}` : 'TemplateModel';
    return 'TemplateAlias';
  }
  if (head === 'headers' && rest.length) return `Headers (${rest.join('.')})`;
  return TOP_LEVEL[head] ?? field;
}
