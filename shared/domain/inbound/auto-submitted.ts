/**
 * Loop protection (RFC 3834): whether a received message was sent by a machine, so a reply-by-email or
 * auto-responder flow does not answer it. The Auto-Submitted value when present and not `no`; otherwise
 * `auto-generated` for the usual signs of machine mail: a null envelope sender (a bounce), Precedence
 * bulk/junk/list/auto_reply, X-Autoreply / X-Autorespond, List-Id. null: a person wrote it. Pure.
 */
export function autoSubmitted(header: (name: string) => string | null, mailFrom: string): string | null {
  const declared = header('auto-submitted')?.trim().toLowerCase().split(/[\s;]/)[0];
  if (declared && declared !== 'no') return declared;
  if (mailFrom === '') return 'auto-generated';
  const precedence = header('precedence')?.trim().toLowerCase();
  if (precedence && ['bulk', 'junk', 'list', 'auto_reply'].includes(precedence)) return 'auto-generated';
  if (header('x-autoreply') !== null || header('x-autorespond') !== null || header('list-id') !== null) return 'auto-generated';
  return null;
}
