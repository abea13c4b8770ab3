/**
 * Our send request's field names (as the send core names them in a 400: `to.0`, `attachments.1.data`,
 * and `emails.<n>.<field>` in a batch) renamed to the SendGrid field the sender wrote, so the SDK's error
 * points at its own request (`personalizations.0.to.0.email`, `attachments.1.content`). Pure.
 */

/** Our attachment item fields -> SendGrid's. */
const ATTACHMENT_FIELDS: Readonly<Record<string, string>> = {
  data: 'content',
  filename: 'filename',
  content_type: 'type',
  content_id: 'content_id',
};

/**
 * SendGrid's name for one of our fields. `personalization` is the personalization the request was made
 * from (a batch field's own `emails.<n>.` prefix wins). '' or `(body)` names the whole body: null.
 */
export function sendgridFieldOf(field: string, personalization = 0): string | null {
  let index = personalization;
  let rest = field;
  const batch = /^emails\.(\d+)(?:\.(.*))?$/.exec(field);
  if (batch) {
    index = Number(batch[1]);
    rest = batch[2] ?? '';
  }
  if (rest === '' || rest === '(body)') return batch ? `personalizations.${index}` : null;
  const [head, ...tail] = rest.split('.');
  switch (head) {
    case 'to':
    case 'cc':
    case 'bcc':
      return tail.length > 0 && /^\d+$/.test(tail[0]!)
        ? `personalizations.${index}.${head}.${tail[0]}.email`
        : `personalizations.${index}.${head}`;
    case 'from':
      return 'from.email';
    case 'subject':
      return 'subject';
    case 'html':
    case 'text':
      return 'content';
    case 'reply_to':
      return 'reply_to';
    case 'attachments': {
      if (tail.length === 0 || !/^\d+$/.test(tail[0]!)) return 'attachments';
      const item = tail[1] === undefined ? undefined : ATTACHMENT_FIELDS[tail[1]];
      return item ? `attachments.${tail[0]}.${item}` : `attachments.${tail[0]}`;
    }
    case 'headers':
      return 'headers';
    case 'tags':
      return 'categories';
    case 'scheduled_at':
      return 'send_at';
    case 'template':
      return tail[0] === 'variables' ? `personalizations.${index}.dynamic_template_data` : 'template_id';
    case 'category':
    case 'unsubscribe':
      return 'asm';
    default:
      return rest;
  }
}
