/** `send`'s flags as a POST /emails body: every flag's mapping, the .eml override rules and the refusals (exit 2). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeSendBodies, parseHeader, parseTag, sendBodyOfFlags } from '#clients/cli/send/flags';
import { fakeApi, run } from './harness';
import { temporaryDir } from '../../support/temporary-dirs';

describe('send flags', () => {
  const dir = temporaryDir('cli-send-');

  it('maps every flag, repeatable ones in order, and reads --html-file and --attach', async () => {
    writeFileSync(join(dir, 'body.html'), '<p>Hi</p>');
    writeFileSync(join(dir, 'report.pdf'), Buffer.from([1, 2, 3]));
    const api = fakeApi([() => ({ body: { id: 'msg_1', status: 'sent' } })]);
    const result = await run(
      [
        'send',
        '--from',
        'Me <me@sandbox.mailservice.dev>',
        '--to',
        'a@example.com',
        '--to',
        'b@example.com',
        '--cc',
        'c@example.com',
        '--bcc',
        'd@example.com',
        '--subject',
        'Hello',
        '--text',
        'plain',
        '--html-file',
        join(dir, 'body.html'),
        '--tag',
        'kind=welcome',
        '--tag',
        'n=1',
        '--header',
        'X-Entity-Ref-ID: 1234',
        '--attach',
        join(dir, 'report.pdf'),
        '--scheduled-at',
        '2030-01-01T00:00:00Z',
        '--idempotency-key',
        'order-1',
        '--tenant',
        'acme',
      ],
      { fetch: api.fetch },
    );
    expect(result).toMatchObject({ status: 0, stdout: 'msg_1 sent\n' });
    const [request] = api.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url.pathname).toBe('/emails');
    expect(request!.headers['Idempotency-Key']).toBe('order-1');
    expect(request!.headers.authorization).toBe('Bearer svc_test');
    expect(request!.body).toEqual({
      from: 'Me <me@sandbox.mailservice.dev>',
      to: ['a@example.com', 'b@example.com'],
      cc: ['c@example.com'],
      bcc: ['d@example.com'],
      subject: 'Hello',
      text: 'plain',
      html: '<p>Hi</p>',
      tags: [
        { name: 'kind', value: 'welcome' },
        { name: 'n', value: '1' },
      ],
      headers: { 'X-Entity-Ref-ID': '1234' },
      attachments: [{ filename: 'report.pdf', data: 'AQID' }],
      scheduled_at: '2030-01-01T00:00:00Z',
      tenant: 'acme',
    });
  });

  it('prints the answer as JSON with --json', async () => {
    const api = fakeApi([() => ({ body: { id: 'msg_2', status: 'scheduled' } })]);
    const result = await run(
      ['--json', 'send', '--from', 'a@sandbox.mailservice.dev', '--to', 'b@example.com', '--subject', 's', '--text', 't'],
      { fetch: api.fetch },
    );
    expect(JSON.parse(result.stdout)).toEqual({ id: 'msg_2', status: 'scheduled' });
  });

  it('refuses a malformed --tag or --header, and a send without its required fields, as usage errors (exit 2, no request)', async () => {
    expect(() => parseTag('novalue')).toThrow('--tag "novalue" is not name=value');
    expect(() => parseHeader('X-Nothing')).toThrow('is not "Name: value"');
    expect(parseHeader('X-A:  b: c ')).toEqual(['X-A', 'b: c']);
    const api = fakeApi([]);
    const missing = await run(['send', '--to', 'b@example.com', '--text', 't'], { fetch: api.fetch });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('send needs --from, --subject');
    const badTag = await run(['send', '--from', 'a@x.dev', '--to', 'b@example.com', '--subject', 's', '--text', 't', '--tag', 'oops'], {
      fetch: api.fetch,
    });
    expect(badTag.status).toBe(2);
    expect(api.requests).toHaveLength(0);
  });

  it('refuses --html with --html-file, and an --attach that cannot be read, naming it', () => {
    expect(() => sendBodyOfFlags({ html: 'x', htmlFile: 'y' })).toThrow('give --html or --html-file, not both');
    expect(() => sendBodyOfFlags({ attach: [join(dir, 'missing.pdf')] })).toThrow(/--attach .*missing\.pdf: cannot read it \(ENOENT\)/);
  });

  it("lets flags override the .eml fields and adds flag attachments to the message's", () => {
    const merged = mergeSendBodies(
      { from: 'a@x.dev', to: ['b@example.com'], subject: 'eml', text: 'body', attachments: [{ filename: 'a.txt', data: 'YQ==' }] },
      { subject: 'flag', to: ['c@example.com'], attachments: [{ filename: 'b.txt', data: 'Yg==' }] },
    );
    expect(merged).toEqual({
      from: 'a@x.dev',
      to: ['c@example.com'],
      subject: 'flag',
      text: 'body',
      attachments: [
        { filename: 'a.txt', data: 'YQ==' },
        { filename: 'b.txt', data: 'Yg==' },
      ],
    });
  });

  it('answers an unknown option or command with exit status 2', async () => {
    expect((await run(['send', '--bogus'])).status).toBe(2);
    expect((await run(['nothing-here'])).status).toBe(2);
    expect((await run(['--help'])).status).toBe(0);
  });
});
