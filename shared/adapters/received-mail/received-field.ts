/**
 * The Received trace field the MX listener puts in front of each stored message (RFC 5321 4.4): who
 * handed it over (EHLO name and address), to which host, over what (ESMTP, ESMTPS with STARTTLS), its
 * id, the recipient when there is one, and when. Folded, ASCII only. Pure.
 */
import { rfc5322Date } from '../../domain/mime/raw-message';

export function receivedField(input: {
  helo: string;
  remoteAddress: string;
  by: string;
  tls: boolean;
  id: string;
  recipients: string[];
  at: Date;
}): string {
  const clean = (value: string) => value.replace(/[^\x21-\x7e]/g, '').slice(0, 255) || 'unknown';
  const date = rfc5322Date(input.at);
  const recipient = input.recipients.length === 1 ? `\r\n\tfor <${clean(input.recipients[0]!)}>` : '';
  return `Received: from ${clean(input.helo)} ([${clean(input.remoteAddress)}])\r\n\tby ${clean(input.by)} with ${input.tls ? 'ESMTPS' : 'ESMTP'} id ${clean(input.id)}${recipient};\r\n\t${date}\r\n`;
}
