/**
 * A comma-separated address list as the providers take one (Postmark's `To`, Mailgun's `to`, ...): each
 * item `a@example.com` or `Name <a@example.com>`, where a quoted display name may itself hold a comma
 * (`"Doe, Jane" <jane@example.com>`), as may what is inside angle brackets. Splits on the commas that
 * separate addresses only; each item is then checked by the send request's address rules. Pure.
 */

/** The addresses of one comma-separated value, trimmed, empty items dropped. */
export function splitAddressList(value: string): string[] {
  const items: string[] = [];
  let current = '';
  let quoted = false;
  let angle = false;
  for (let i = 0; i < value.length; i += 1) {
    const char = value[i]!;
    if (quoted && char === '\\' && i + 1 < value.length) {
      current += char + value[i + 1]!;
      i += 1;
      continue;
    }
    if (char === '"' && !angle) quoted = !quoted;
    else if (char === '<' && !quoted) angle = true;
    else if (char === '>' && !quoted) angle = false;
    if (char === ',' && !quoted && !angle) {
      items.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  items.push(current);
  return items.map((item) => item.trim()).filter((item) => item !== '');
}
