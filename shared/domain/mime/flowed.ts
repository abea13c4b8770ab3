/**
 * RFC 3676 format=flowed text unwrapped as mailparser does it (libmime's decodeFlowed): a line ending in
 * a space continues on the next (that space dropped too with DelSp=yes), except after a "-- " signature
 * line; then the space stuffing at the start of each line is removed. A trailing empty line is dropped.
 * Linear: a paragraph is kept as a list of pieces and joined once.
 */
export function unflow(text: string, delSp: boolean): string {
  const paragraphs: string[] = [];
  let pieces: string[] | null = null;
  let length = 0;
  const push = (piece: string) => {
    if (piece) {
      pieces!.push(piece);
      length += piece.length;
    }
  };
  for (const line of text.split(/\r?\n/)) {
    const last = pieces?.length ? pieces[pieces.length - 1]! : '';
    if (last.endsWith(' ') && !(length === 3 && pieces!.join('') === '-- ')) {
      if (delSp) {
        pieces!.pop();
        length -= last.length;
        push(last.slice(0, -1));
      }
      push(line);
    } else {
      if (pieces !== null) paragraphs.push(pieces.join(''));
      pieces = [];
      length = 0;
      push(line);
    }
  }
  if (pieces !== null && length) paragraphs.push(pieces.join(''));
  return paragraphs.join('\n').replace(/^ /gm, '');
}
