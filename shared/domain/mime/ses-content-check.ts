/**
 * The refusal (by the SMTP relay, and of an inbound forward) of a message Amazon SES would refuse (shared/domain/emails/ses-content-rules.ts):
 * a field SES allows once given twice in the message's header section, or a file (any part with a file
 * name: Content-Disposition `filename` or Content-Type `name`, RFC 2231/2047 decoded) of an extension or
 * with characters SES refuses. A ValidationError naming the field or the file: 550 5.6.0
 * (shared/doors/smtp/replies.ts), before anything is stored, instead of a 250 for a message that would then fail.
 */
import { repeatedSingleHeader, sesFilenameRefusal } from '../emails/ses-content-rules';
import { ValidationError } from '../errors';
import { fieldName, splitHeaderBlock } from './header-block';
import { walkParts } from './mime-part';
import { readMimeTree } from './mime-tree';
import { PREVIEW_LIMITS } from './parse-bodies';

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
