/** The .eml mapping: addresses (names, several, groups), subject, both bodies as written, attachments (inline ones with their Content-ID). */
import { sendBodyOfEml } from '#clients/cli/send/eml';

const EML = [
  'From: "Ann Example" <ann@sandbox.mailservice.dev>',
  'To: Bob <bob@example.com>, carol@example.com',
  'Cc: Team: dave@example.com, erin@example.com;',
  'Reply-To: help@example.com',
  'Subject: =?UTF-8?Q?Caf=C3=A9_report?=',
  'Message-ID: <1@example.com>',
  'Date: Mon, 1 Jan 2024 00:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="mixed"',
  '',
  '--mixed',
  'Content-Type: multipart/related; boundary="rel"',
  '',
  '--rel',
  'Content-Type: multipart/alternative; boundary="alt"',
  '',
  '--alt',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Hello in text',
  '--alt',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>Hello <img src="cid:logo@x"></p>',
  '--alt--',
  '--rel',
  'Content-Type: image/png',
  'Content-ID: <logo@x>',
  'Content-Disposition: inline; filename="logo.png"',
  'Content-Transfer-Encoding: base64',
  '',
  'iVBORw0KGgo=',
  '--rel--',
  '--mixed',
  'Content-Type: text/csv; name="data.csv"',
  'Content-Disposition: attachment; filename="data.csv"',
  '',
  'a,b',
  '--mixed--',
  '',
].join('\r\n');

describe('.eml to a send', () => {
  it('maps from, to, cc (a group flattened), reply-to, the decoded subject, both bodies and the attachments', async () => {
    const body = await sendBodyOfEml(EML);
    expect(body.from).toBe('Ann Example <ann@sandbox.mailservice.dev>');
    expect(body.to).toEqual(['Bob <bob@example.com>', 'carol@example.com']);
    expect(body.cc).toEqual(['dave@example.com', 'erin@example.com']);
    expect(body.reply_to).toEqual(['help@example.com']);
    expect(body.subject).toBe('Café report');
    expect(body.text?.trim()).toBe('Hello in text');
    expect(body.html).toContain('<img src="cid:logo@x">');
    expect(body.attachments).toEqual([
      {
        filename: 'logo.png',
        content_type: 'image/png',
        data: Buffer.from('iVBORw0KGgo=', 'base64').toString('base64'),
        content_id: 'logo@x',
      },
      { filename: 'data.csv', content_type: 'text/csv', data: Buffer.from('a,b').toString('base64') },
    ]);
    expect(body).not.toHaveProperty('headers');
  });

  it('makes up neither body: a text-only message has no html, an html-only one no text', async () => {
    const textOnly = await sendBodyOfEml('From: a@x.dev\r\nTo: b@example.com\r\nSubject: t\r\n\r\nJust text\r\n');
    expect(textOnly).toEqual({ from: 'a@x.dev', to: ['b@example.com'], subject: 't', text: 'Just text\n' });
    const htmlOnly = await sendBodyOfEml(
      'From: a@x.dev\r\nTo: b@example.com\r\nSubject: h\r\nContent-Type: text/html\r\n\r\n<b>Hi</b>\r\n',
    );
    expect(htmlOnly.text).toBeUndefined();
    expect(htmlOnly.html).toContain('<b>Hi</b>');
  });
});
