/** What SES refuses, refused at our doors (shared/domain/emails/ses-content-rules.ts, shared/domain/mime/ses-content-check.ts). */
import { sesMessageIdOf } from '#shared/domain/ses/ses-message-id';
import { findHeaderProblems } from '#shared/domain/emails/headers';
import {
  repeatedSingleHeader,
  SES_REFUSED_EXTENSIONS,
  SES_SINGLE_HEADERS,
  sesFilenameRefusal,
} from '#shared/domain/emails/ses-content-rules';
import { sesContentRefusal } from '#shared/domain/mime/ses-content-check';

describe("SES's file and header rules", () => {
  it('has the 90 extensions and 60 fields of the AWS pages', () => {
    expect(new Set(SES_REFUSED_EXTENSIONS).size).toBe(90);
    expect(new Set(SES_SINGLE_HEADERS.map((name) => name.toLowerCase())).size).toBe(60);
  });

  it('judges a file by its last extension, in any case, and refuses the characters SES refuses', () => {
    for (const name of ['cert.cer', 'KEY.DER', 'setup.msi', 'report.pdf.url', 'a:b.txt', 'q?.pdf', 'x|y', 'say"hi".txt', '<x>.png', 'a*b'])
      expect(sesFilenameRefusal(name)).toContain(`"${name}"`);
    for (const name of ['report.pdf', 'setup.msi.zip', 'notes', 'data.csv', 'café.txt']) expect(sesFilenameRefusal(name)).toBeNull();
  });

  it('finds a repeated single-occurrence field whatever its case, and ignores others', () => {
    expect(repeatedSingleHeader(['From', 'References', 'X-A', 'references'])).toBe('references');
    expect(repeatedSingleHeader(['Received', 'Received', 'X-A', 'x-a'])).toBeNull();
    expect(findHeaderProblems({ 'In-Reply-To': '<a@x>', 'in-reply-to': '<b@x>' })).toEqual([
      { header: 'in-reply-to', reason: expect.stringContaining('only once') },
    ]);
    expect(findHeaderProblems({ 'X-Tag': '1', 'x-tag': '2' })).toEqual([]);
  });

  it('the relay: refuses a repeated field or a refused file anywhere in the MIME tree, naming it', () => {
    const message = (lines: string[]) => Buffer.from(lines.join('\r\n'));
    expect(sesContentRefusal(message(['From: a@x.com', 'Subject: a', 'SUBJECT: b', '', 'x']))?.message).toContain('SUBJECT');
    const nested = message([
      'From: a@x.com',
      'Content-Type: multipart/mixed; boundary="o"',
      '',
      '--o',
      'Content-Type: multipart/related; boundary="i"',
      '',
      '--i',
      'Content-Type: text/html',
      '',
      '<p>x</p>',
      '--i',
      "Content-Type: application/octet-stream; name*=UTF-8''caf%C3%A9.crt",
      '',
      'eA==',
      '--i--',
      '--o--',
      '',
    ]);
    expect(sesContentRefusal(nested)?.message).toContain('café.crt');
    expect(sesContentRefusal(message(['From: a@x.com', 'Received: a', 'Received: b', '', 'x']))).toBeNull();
  });

  it('names the Message-ID SES gives, by region', () => {
    expect(sesMessageIdOf('0100abc-000000', 'us-east-1')).toBe('<0100abc-000000@email.amazonses.com>');
    expect(sesMessageIdOf('0102abc-000000', 'eu-west-1')).toBe('<0102abc-000000@eu-west-1.amazonses.com>');
  });
});
