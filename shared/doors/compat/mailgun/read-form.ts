/**
 * The request's body as Mailgun sends it: multipart/form-data (the SDK, with `form-data` or the global
 * FormData) or application/x-www-form-urlencoded. Text fields become lists of values (any field may be
 * repeated); files are taken from `attachment` and `inline` only. A file under another name, a text value
 * under `attachment`/`inline`, another content type or a body that is not a form is a 400.
 */
import { ValidationError } from '#shared/domain/errors';
import type { FormFields } from './message-schema';
import type { MailgunFile } from './to-send-request';

const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];
const FILE_FIELDS = ['attachment', 'inline'] as const;

export interface MailgunForm {
  fields: FormFields;
  files: MailgunFile[];
}

const refuse = (field: string, message: string) => new ValidationError(message, { details: { fields: [{ field, message }] } });

/** Whether the content type is one Mailgun takes; a 400 otherwise. */
export function checkFormType(contentType: string | undefined): void {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!FORM_TYPES.includes(media)) {
    throw refuse('(body)', `The body must be multipart/form-data or application/x-www-form-urlencoded (got ${media || 'no content type'})`);
  }
}

const isFile = (value: string | File): value is File => typeof value !== 'string';

/** A parsed form's fields and files. */
export async function formOf(form: FormData): Promise<MailgunForm> {
  const fields: FormFields = Object.create(null) as FormFields;
  const entries: [string, string | File][] = [];
  form.forEach((value, key) => {
    entries.push([key, value]);
  });
  const files: MailgunFile[] = [];
  for (const [key, value] of entries) {
    const fileField = FILE_FIELDS.find((name) => name === key);
    if (fileField) {
      if (!isFile(value)) throw refuse(key, `'${key}' must be a file (send it as multipart/form-data)`);
      files.push({
        field: fileField,
        filename: value.name || 'file',
        contentType: value.type,
        data: Buffer.from(await value.arrayBuffer()),
      });
    } else if (isFile(value)) {
      throw refuse(key, `'${key}' must be a text field (files go in 'attachment' or 'inline')`);
    } else {
      fields[key] ??= [];
      fields[key].push(value);
    }
  }
  return { fields, files };
}
