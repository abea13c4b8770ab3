/**
 * docs/automations.md's quick start works as written: its shell block run with only the placeholders
 * filled in (the API URL, the key and the account's address), then the run and its emails checked.
 */
import { execFileSync } from 'node:child_process';
import { shellBlockAfter } from '../support/docs/markdown';
import { api, newAccount, stack, waitFor, waitForStatus } from './harness/stack';

function documentedBlock(): string {
  // The page makes an account of its own with the admin CLI (which targets `npm start`'s stack): the test
  // uses a fresh account on the test stack instead, so those lines go.
  return shellBlockAfter('docs/automations.md', '## Quick start')
    .text.split('\n')
    .filter((line) => !/^(ACCOUNT|ACCOUNT_ID|KEY)=\$\(/.test(line))
    .join('\n');
}

describe('automations, as documented in docs/automations.md', () => {
  it('creates the welcome series, starts it with user.created, resumes it with user.verified and sends both emails', async () => {
    const account = await newAccount();
    const script = documentedBlock()
      .replaceAll('http://127.0.0.1:3000', stack().apiUrl)
      .replaceAll('$KEY', account.key)
      .replaceAll('automations@example.com', account.email);
    // The page reads the run until it waits ("look again until it does"): the test looks again the same way.
    const lookAgain = script.replace(
      /(curl -s \S+\/runs [^\n]*\\\n\s*\| jq -c '[^']*')/,
      'until $1 | grep -q waiting; do sleep 0.2; done; $1',
    );
    expect(lookAgain).not.toBe(script);
    const output = execFileSync('bash', ['-euo', 'pipefail', '-c', lookAgain], { encoding: 'utf8', timeout: 60_000 });
    const answers = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(answers).toHaveLength(4);
    expect(answers[0].automation).toMatchObject({ name: 'Welcome series', status: 'active', version: 1 });
    expect(answers[1]).toMatchObject({
      event: { name: 'user.created', user_id: '42', source: 'api' },
      matched_automations: 1,
      resumed_runs: 0,
      cancelled_runs: 0,
    });
    expect(answers[2]).toEqual([{ status: 'running', step: { key: 'verified', state: 'waiting' } }]);
    expect(answers[3]).toMatchObject({ matched_automations: 0, resumed_runs: 1, cancelled_runs: 0 });

    const id = answers[0].automation.id as string;
    const run = await waitFor(
      async () => {
        const [listed] = (await api('GET', `/automations/${id}/runs`, { key: account.key })).body.runs;
        return listed?.status === 'completed' ? listed : undefined;
      },
      'the run completed',
      20_000,
      200,
    );
    const detail = (await api('GET', `/automations/${id}/runs/${run.id}`, { key: account.key })).body.run;
    expect(detail.steps.map((step: any) => [step.key, step.status])).toEqual([
      ['welcome', 'completed'],
      ['verified', 'completed'],
      ['is-pro', 'completed'],
      ['pro-tips', 'completed'],
    ]);
    const subjects = [];
    for (const key of ['welcome', 'pro-tips']) {
      const emailId = detail.steps.find((step: any) => step.key === key).output.email_id;
      subjects.push((await waitForStatus(account, emailId, 'delivered')).subject);
    }
    expect(subjects).toEqual(['Welcome, Ada', 'Three tips for your pro plan']);
  });
});
