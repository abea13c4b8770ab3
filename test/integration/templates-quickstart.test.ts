/**
 * docs/templates.md's quick start works as written: its shell block run with only the placeholders filled
 * in (the API URL, the key and the account's address), then the delivered message checked.
 */
import { execFileSync } from 'node:child_process';
import { shellBlockAfter } from '../support/docs/markdown';
import { api, newAccount, sesMessagesFor, stack, waitForStatus } from './harness/stack';

function documentedBlock(): string {
  // The page makes an account of its own with the admin CLI (which targets `npm start`'s stack): the test
  // uses a fresh account on the test stack instead, so those lines go.
  return shellBlockAfter('docs/templates.md', '## Quick start')
    .text.split('\n')
    .filter((line) => !/^(ACCOUNT|ACCOUNT_ID|KEY)=\$\(/.test(line))
    .join('\n');
}

describe('templates, as documented in docs/templates.md', () => {
  it('creates, publishes, renders and sends with the quick start commands', async () => {
    const account = await newAccount();
    const script = documentedBlock()
      .replaceAll('http://127.0.0.1:3000', stack().apiUrl)
      .replaceAll('$KEY', account.key)
      .replaceAll('templates@example.com', account.email);
    const output = execFileSync('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8', timeout: 60_000 });
    const answers = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(answers).toHaveLength(4);
    expect(answers[0].template).toMatchObject({ alias: 'welcome', status: 'draft', category: 'product', unsubscribe_enabled: true });
    expect(answers[1].template).toMatchObject({ status: 'published', published_version: 1 });
    expect(answers[2]).toMatchObject({
      subject: 'Welcome, Ann <3',
      html: expect.stringContaining('Hi Ann &lt;3, your plan is free.'),
      warnings: [],
    });
    expect(answers[3]).toEqual({ id: expect.stringMatching(/^msg_/), status: 'sent' });
    await waitForStatus(account, answers[3].id, 'delivered');
    const [message] = await sesMessagesFor(answers[3].id);
    expect(message!.raw).toMatch(/^Subject: Welcome, Ann\r$/m);
    const unsubscribe = /^List-Unsubscribe: <([^>]+)>/m.exec(message!.raw.replace(/\r\n[ \t]+/g, ' '))![1]!;
    // The confirmation page answers without a key.
    const page = await fetch(unsubscribe);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form');
    expect((await api('GET', `/emails/${answers[3].id}`, { key: account.key })).body.email.subject).toBe('Welcome, Ann');
  });
});
