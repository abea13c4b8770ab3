/**
 * The new part of a reply: the text body without the quoted message and the signature, what a support
 * desk or a reply-by-email flow wants to store (Postmark's StrippedTextReply, Mailgun's stripped-text).
 * It cuts at the first line that starts the quoted original ("On ... wrote:", "-----Original Message-----",
 * an Outlook "From: ... Sent:" block, a run of "> " lines) and at a signature delimiter ("-- "), then trims.
 * Heuristic, like theirs: the full text is always available too. Pure.
 */
const QUOTE_HEADERS: RegExp[] = [
  /^\s*On\b.{0,300}\bwrote:\s*$/i,
  /^\s*Le\b.{0,300}\ba écrit\s*:\s*$/i,
  /^\s*Am\b.{0,300}\bschrieb\b.{0,200}:\s*$/i,
  /^\s*El\b.{0,300}\bescribió:\s*$/i,
  /^\s*-{2,}\s*Original Message\s*-{2,}\s*$/i,
  /^\s*-{2,}\s*Forwarded message\s*-{2,}\s*$/i,
  /^\s*_{10,}\s*$/,
];

export function stripReply(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // "On Mon, ... <a@b>\nwrote:" is often wrapped over two lines.
    const joined = i + 1 < lines.length ? `${line} ${lines[i + 1]}` : line;
    if (
      line === '-- ' ||
      line === '--' ||
      QUOTE_HEADERS.some((pattern) => pattern.test(line)) ||
      (/^\s*On\b/i.test(line) && /\bwrote:\s*$/i.test(joined) && !/\bwrote:/i.test(line))
    ) {
      end = i;
      break;
    }
    if (/^\s*From:\s/i.test(line) && lines.slice(i + 1, i + 5).some((next) => /^\s*(Sent|Date):\s/i.test(next))) {
      end = i;
      break;
    }
    if (line.startsWith('>') && lines.slice(i).every((rest) => rest.startsWith('>') || rest.trim() === '')) {
      end = i;
      break;
    }
  }
  return lines.slice(0, end).join('\n').trim();
}
