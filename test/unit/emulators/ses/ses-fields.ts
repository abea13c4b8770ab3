/** The stored bytes without the Date and Message-ID lines the local SES puts first (localstack/emulators/ses/message-id.ts). */
export function withoutSesDateAndMessageId(rawBase64: string): Buffer {
  const bytes = Buffer.from(rawBase64, 'base64');
  const match = /^Date: [^\r\n]+\r\nMessage-ID: <[^>\r\n]+@email\.amazonses\.com>\r\n/.exec(bytes.toString('latin1'));
  if (!match)
    throw new Error(`the stored message does not start with SES's Date and Message-ID: ${bytes.subarray(0, 120).toString('latin1')}`);
  return bytes.subarray(match[0].length);
}
