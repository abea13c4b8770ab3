/**
 * The local mailbox's filters on the emulator's own port (`GET /_local/messages`; the local cloud's
 * `GET /_local/ses/messages` takes the same): each filter, their combination, newest first, no bytes
 * unless `raw=1`, and a refusal (400) for an unknown parameter or a bad value instead of every message.
 */
import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await Harness.start({ outcomeDelayMs: 10 });
});
afterAll(async () => {
  await h.stop();
});

async function send(to: string, subject: string, tags: Record<string, string>): Promise<string> {
  const out = await h.client.send(
    new SendEmailCommand({
      FromEmailAddress: 'Sender <sender@example.com>',
      Destination: { ToAddresses: [to] },
      Content: { Simple: { Subject: { Data: subject }, Body: { Text: { Data: `body of ${subject}` } } } },
      EmailTags: Object.entries(tags).map(([Name, Value]) => ({ Name, Value })),
    }),
  );
  return out.MessageId!;
}

async function mailbox(query: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${h.ses.url}/_local/messages${query}`);
  return { status: response.status, body: await response.json() };
}

const ids = async (query: string) => {
  const response = await mailbox(query);
  expect(response.status).toBe(200);
  return (response.body.messages as { id: string }[]).map((m) => m.id);
};

describe('GET /_local/messages filters', () => {
  let first: string;
  let second: string;
  let third: string;
  let between: string;

  beforeAll(async () => {
    first = await send('Ann <ann@example.com>', 'one', { email_id: 'msg_1', account: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    between = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    second = await send('bob@example.com', 'two', { email_id: 'msg_2', account: 'a' });
    third = await send('ANN@example.com', 'three', { email_id: 'msg_3', account: 'b' });
  });

  it('filters on email_id, a recipient (any case), tags, subject and since; newest first', async () => {
    expect(await ids('?email_id=msg_2')).toEqual([second]);
    expect(await ids('?email_id=msg_none')).toEqual([]);
    expect(await ids('?to=ann%40example.com')).toEqual([third, first]);
    expect(await ids('?tag=account:a')).toEqual([second, first]);
    expect(await ids('?tag=account:a&tag=email_id:msg_1')).toEqual([first]);
    expect(await ids('?tag=account')).toEqual([third, second, first]);
    expect(await ids('?tag=constructor')).toEqual([]);
    expect(await ids('?subject=three')).toEqual([third]);
    expect(await ids(`?since=${encodeURIComponent(between)}`)).toEqual([third, second]);
    expect(await ids('?to=ann%40example.com&tag=account:a')).toEqual([first]);
    expect(await ids('?limit=2')).toEqual([third, second]);
    expect(await ids('')).toEqual([third, second, first]);
  });

  it('leaves out the bytes unless raw=1', async () => {
    const [plain] = (await mailbox('?email_id=msg_1')).body.messages;
    expect(plain).toMatchObject({ id: first, to: ['ann@example.com'], subject: 'one', tags: { email_id: 'msg_1', account: 'a' } });
    expect(plain).not.toHaveProperty('raw');
    expect(plain).not.toHaveProperty('raw_base64');
    const [withRaw] = (await mailbox('?email_id=msg_1&raw=1')).body.messages;
    expect(withRaw.raw).toContain('body of one');
    expect(Buffer.from(withRaw.raw_base64, 'base64').toString('utf8')).toBe(withRaw.raw);
    expect((await mailbox('?email_id=msg_1&raw=0')).body.messages[0]).not.toHaveProperty('raw');
  });

  it.each([
    ['an unknown parameter', '?emailId=msg_1', /unknown parameter "emailId"/],
    ['a bad time', '?since=yesterday', /since must be an ISO 8601 time/],
    ['a bad limit', '?limit=0', /limit must be an integer from 1/],
    ['a repeated filter', '?email_id=a&email_id=b', /email_id may be given once/],
    ['an empty filter', '?to=', /to must not be empty/],
    ['a tag without a name', '?tag=:x', /tag must be name:value or name/],
    ['a bad raw', '?raw=yes', /raw must be 1 or 0/],
  ])('refuses %s with 400 naming it', async (_what, query, message) => {
    const response = await mailbox(query);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });
});
