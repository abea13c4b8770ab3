/**
 * The documented local test (docs/inbound.md) works as written: the domain's records published with the
 * documented jq loop, then the swaks line, each read from the docs with only the placeholders filled in
 * (the API key, the domain id, the port, the receiving address).
 */
import { execFileSync } from 'node:child_process';
import { shellBlockAfter } from '../support/docs/markdown';
import { mx, receivedIds, waitForReceived } from './harness/inbound';
import { uniqueDomain } from './harness/dns';
import { api, newAccount, stack } from './harness/stack';

/** The shell block of "Local testing with swaks". */
const documentedBlock = () => shellBlockAfter('docs/inbound.md', '## Local testing with swaks').text;

describe('inbound, as documented in docs/inbound.md', () => {
  it('publishes the records with the documented loop, verifies, and receives what swaks sends', async () => {
    execFileSync('swaks', ['--version'], { stdio: 'ignore' });
    const account = await newAccount();
    const name = uniqueDomain();
    const created = await api('POST', '/domains', { key: account.key, body: { name, inbound_enabled: true } });
    const domain = created.body.domain as { id: string; inbound_subdomain: string };
    const to = `support@${domain.inbound_subdomain}`;
    const base = stack().apiUrl;
    const script = documentedBlock()
      .split('\n')
      .filter((line) => !line.startsWith('curl -s http://127.0.0.1:3000/received-emails'))
      .join('\n')
      .replaceAll('http://127.0.0.1:3000', base)
      .replaceAll('$DOMAIN_ID', domain.id)
      .replaceAll('$KEY', account.key)
      .replaceAll('127.0.0.1:2525', `127.0.0.1:${mx().port}`)
      .replaceAll('support@inbound.helpdesk.example', to);
    expect(script).toContain(domain.id);
    expect(script).toContain(to);
    const output = execFileSync('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8', timeout: 60_000 });
    expect(output).toMatch(/STARTTLS/);
    const [id] = receivedIds(/250 2\.0\.0 Ok: queued as inb_[0-9A-Z]{26}/.exec(output)![0]);
    const email = await waitForReceived(account, id!);
    expect(email).toMatchObject({ rcpt_to: [to], mail_from: 'someone@example.org', subject: 'Hello', tls: true });
  });
});
