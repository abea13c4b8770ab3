import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { findHeaderProblems } from '#shared/domain/emails/headers';

const base = { from: 'a@x.io', to: 'b@y.io', subject: 's', text: 't' };

describe('send request schema', () => {
  it('maps every alias to its canonical field, the canonical name winning', () => {
    const parsed = sendRequestSchema.parse({ ...base, text: undefined, htmlBody: '<p>h</p>', textBody: 'tb', replyTo: 'r@z.io' });
    expect(parsed).toMatchObject({ html: '<p>h</p>', text: 'tb', reply_to: ['r@z.io'] });
    expect(sendRequestSchema.parse({ ...base, html_body: 'alias', html: 'canonical' }).html).toBe('canonical');
    expect(sendRequestSchema.parse({ ...base, text: undefined, plain_body: 'p' }).text).toBe('p');
    expect(sendRequestSchema.parse({ ...base, text: undefined, text_body: 'p2' }).text).toBe('p2');
  });

  it('accepts from as a string or an object and recipients as string or array', () => {
    expect(sendRequestSchema.parse({ ...base, from: { email: 'a@x.io', name: 'A' } }).from).toEqual({ email: 'a@x.io', name: 'A' });
    expect(sendRequestSchema.parse({ ...base, to: ['b@y.io', 'C <c@y.io>'] }).to).toEqual(['b@y.io', 'C <c@y.io>']);
  });

  it('accepts tags as an array or an object, at most 10', () => {
    expect(sendRequestSchema.parse({ ...base, tags: { a: '1' } }).tags).toEqual([{ name: 'a', value: '1' }]);
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`t${i}`, 'v']));
    expect(sendRequestSchema.safeParse({ ...base, tags: many }).success).toBe(false);
    expect(sendRequestSchema.safeParse({ ...base, tags: [{ name: 'bad name', value: 'v' }] }).success).toBe(false);
  });

  it('caps recipients at 50 across to, cc and bcc', () => {
    const to = Array.from({ length: 30 }, (_, i) => `u${i}@y.io`);
    const cc = Array.from({ length: 21 }, (_, i) => `c${i}@y.io`);
    expect(sendRequestSchema.safeParse({ ...base, to, cc }).success).toBe(false);
    expect(sendRequestSchema.safeParse({ ...base, to, cc: cc.slice(1) }).success).toBe(true);
  });
});

describe('custom headers', () => {
  it('refuses transport, authentication and tracking headers, and CR/LF', () => {
    const problems = findHeaderProblems({
      'X-Fine': 'ok',
      BCC: 'x',
      'Return-Path': 'x',
      'DKIM-Signature': 'x',
      'Content-Transfer-Encoding': 'x',
      Received: 'x',
      'X-Service-Message-Id': 'x',
      'X-Injected': 'a\nb',
      'Bad Name': 'x',
    }).map((p) => p.header);
    expect(problems.sort()).toEqual(
      [
        'BCC',
        'Bad Name',
        'Content-Transfer-Encoding',
        'DKIM-Signature',
        'Received',
        'Return-Path',
        'X-Injected',
        'X-Service-Message-Id',
      ].sort(),
    );
  });

  it('refuses the whole X-SES- prefix in any case, each problem naming its header', () => {
    const problems = findHeaderProblems({ 'X-SES-TENANT': 'x', 'X-Ses-Anything': 'x', 'x-ses-configuration-set': 'x', 'X-Sesame': 'ok' });
    expect(problems.map((p) => p.header)).toEqual(['X-SES-TENANT', 'X-Ses-Anything', 'x-ses-configuration-set']);
    for (const problem of problems) expect(problem.reason).toContain(problem.header);
  });
});
