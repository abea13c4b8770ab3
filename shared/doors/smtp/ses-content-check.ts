/**
 * The SMTP relay's refusal of a message Amazon SES would refuse (shared/domain/emails/ses-content-rules.ts):
 * a field SES allows once given twice in the message's header section, or a file (any part with a file
 * name: Content-Disposition `filename` or Content-Type `name`, RFC 2231/2047 decoded) of an extension or
 * with characters SES refuses. A ValidationError naming the field or the file: 550 5.6.0
 * (./replies.ts), before anything is stored, instead of a 250 for a message that would then fail.
 */
import { repeatedSingleHeader, sesFilenameRefusal } from '../../domain/emails/ses-content-rules';
import { ValidationError } from '../../domain/errors';
import { fieldName, splitHeaderBlock } from '../../domain/mime/header-block';
import { walkParts } from '../../domain/mime/mime-part';
import { readMimeTree } from '../../domain/mime/mime-tree';
import { PREVIEW_LIMITS } from '../../domain/mime/parse-bodies';

const refused = (field: string, message: string) => new ValidationError(message, { details: { fields: [{ field, message }] } });

/** The refusal of a message (as it would be handed to SES), or null when SES would take it. */
export function sesContentRefusal(raw: Buffer): ValidationError | null {
  const repeated = repeatedSingleHeader(splitHeaderBlock(raw).fields.map(fieldName));
  if (repeated)
    return refused(
      repeated,
      `The message's ${repeated} field is given more than once: Amazon SES allows it once (and refuses the message otherwise).`,
    );
  for (const { part } of walkParts(readMimeTree(raw, PREVIEW_LIMITS).root)) {
    const refusal = part.filename === null ? null : sesFilenameRefusal(part.filename);
    if (refusal) return refused('attachment', `The message's attachment ${refusal}.`);
  }
  return null;
}
