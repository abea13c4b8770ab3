/**
 * The documented swaks command (docs/smtp.md) works as written against the local relay: the command is
 * read from the docs, with only the placeholders filled in (recipient, port, password). swaks is a Debian
 * package; `bash bin/install-test-tools` installs it (README: prerequisites).
 */
import { execFileSync } from 'node:child_process';
import { pageCodeBlocks, SHELL_LANGS } from '../support/docs/markdown';
import { createSmtpCredential, relay } from './harness/smtp';
import { newAccount, waitForStatus } from './harness/stack';

/** The `swaks ...` line of docs/smtp.md's first shell block that uses it. */
function documentedCommand(): string[] {
  const line = pageCodeBlocks('docs/smtp.md')
    .filter((block) => SHELL_LANGS.has(block.lang))
    .flatMap((block) => block.text.split('\n'))
    .find((text) => text.startsWith('swaks '));
  if (!line) throw new Error('docs/smtp.md has no swaks command');
  return line.trim().split(/\s+/);
}

describe('swaks, as documented in docs/smtp.md', () => {
  it('sends through the relay with STARTTLS and AUTH PLAIN: 250 with the email id, then delivered', async () => {
    try {
      execFileSync('swaks', ['--version'], { stdio: 'ignore' });
    } catch {
      throw new Error('swaks is not installed: bash bin/install-test-tools installs it');
    }
    const account = await newAccount({ email: `you+${Date.now()}@example.com` });
    const { password } = await createSmtpCredential(account);
    const { port } = relay();
    const [command, ...args] = documentedCommand();
    const filled = args.map((arg) =>
      arg === 'smtp@example.com'
        ? account.email
        : arg === '127.0.0.1:2587'
          ? `127.0.0.1:${port}`
          : arg === '"$SMTP_PASSWORD"'
            ? password
            : arg,
    );
    // Every placeholder of the documented line was found and filled.
    expect(filled).toContain(account.email);
    expect(filled).toContain(password);
    expect(filled).toContain(`127.0.0.1:${port}`);
    const output = execFileSync(command!, filled, { encoding: 'utf8', timeout: 30_000 });
    const id = /250 2\.0\.0 Ok: queued as (msg_[0-9A-Z]{26})/.exec(output)?.[1];
    expect(id).toBeDefined();
    expect(output).toMatch(/STARTTLS/);
    const email = await waitForStatus(account, id!, 'delivered');
    expect(email).toMatchObject({ to: [account.email], from: 'hello@sandbox.mailservice.dev' });
  });
});
