/**
 * The CLI as a user runs it (docs/cli.md): `node bin/mailservice.js ...` as a child process, its env
 * pointing at the shared stack's API and an account's key, against the local cloud. Sends from flags and
 * from an .eml (delivered), a domain added and verified (its records published in the DNS emulator), a
 * domain's health (before and after its records are published) and DMARC figures, a receiving domain's
 * hosted MTA-STS policy (hosted, shown, stopped; the 400 of a domain that does not receive),
 * keys created, listed and revoked, a suppressions CSV imported then exported (round trip), `events tail
 * --once`, addresses validated (arguments and a file of more than one batch, the DNS emulator's zones), an
 * import from the fake SendGrid with its progress, and errors (a bad key: exit 1 with the
 * API's message; a usage error: exit 2).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendgridFixture } from '../fixtures/providers/sendgrid';
import { publish, publishAll, uniqueDomain } from './harness/dns';
import { fixtureData, providerKey, publishFixtureDns, seedProvider } from './harness/imports';
import { api, newAccount, sesMessagesFor, stack, waitForStatus, type TestAccount } from './harness/stack';

const BIN = join(__dirname, '..', '..', 'bin', 'mailservice.js');
const SANDBOX_FROM = 'CLI Test <cli@sandbox.mailservice.dev>';

interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

describe('the mailservice CLI against the local cloud', () => {
  let account: TestAccount;
  let dir: string;

  /** Runs the CLI with the account's key (or `env` over it); never throws on a non-zero exit. */
  const cli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [BIN, ...args],
        {
          cwd: dir,
          timeout: 120_000,
          env: {
            PATH: process.env.PATH,
            HOME: dir,
            MAILSERVICE_BASE_URL: stack().apiUrl,
            MAILSERVICE_API_KEY: account.key,
            MAILSERVICE_CONFIG: join(dir, 'config.json'),
            ...env,
          },
        },
        (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
    });
  const ok = async (args: string[], env?: Record<string, string>) => {
    const run = await cli(args, env);
    if (run.status !== 0) throw new Error(`mailservice ${args.join(' ')} exited ${run.status}\n${run.stderr}${run.stdout}`);
    return run;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mailservice-cli-'));
    account = await newAccount({ plan: 'pro' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ends quietly when its reader stops reading (| head -1): exit 0, no EPIPE trace', async () => {
    // Enough lines that the reader is gone before the last write: every key of the account, many times over.
    for (let i = 0; i < 3; i++) await ok(['keys', 'create', '--name', `pipe-${i}`, '--scopes', 'account:read']);
    const shell = await new Promise<{ status: number; stderr: string; stdout: string }>((resolve) => {
      execFile(
        'bash',
        ['-o', 'pipefail', '-c', `for i in 1 2 3 4 5 6 7 8; do node ${JSON.stringify(BIN)} keys list; done | head -1`],
        {
          cwd: dir,
          timeout: 120_000,
          env: {
            PATH: process.env.PATH,
            HOME: dir,
            MAILSERVICE_BASE_URL: stack().apiUrl,
            MAILSERVICE_API_KEY: account.key,
            MAILSERVICE_CONFIG: join(dir, 'config.json'),
          },
        },
        (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
    });
    expect(shell.stderr).not.toContain('EPIPE');
    expect(shell.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(shell.status).toBe(0);
  });

  it('sends from flags (with a tag, a header and an attachment) and the email is delivered', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'attached notes');
    const run = await ok([
      'send',
      '--from',
      SANDBOX_FROM,
      '--to',
      account.email,
      '--subject',
      'From the CLI',
      '--text',
      'Hello from flags',
      '--tag',
      'source=cli',
      '--header',
      'X-Entity-Ref-ID: cli-1',
      '--attach',
      join(dir, 'notes.txt'),
      '--idempotency-key',
      `cli-${account.id}`,
    ]);
    const [id, status] = run.stdout.trim().split(' ');
    expect(status).toBe('sent');
    expect(id).toMatch(/^msg_/);
    const email = await waitForStatus(account, id!, 'delivered');
    expect(email).toMatchObject({
      subject: 'From the CLI',
      to: [account.email],
      tags: expect.arrayContaining([{ name: 'source', value: 'cli' }]),
    });
    expect(email.attachments).toEqual([expect.objectContaining({ filename: 'notes.txt' })]);
    const [message] = await sesMessagesFor(id!);
    expect(message!.raw).toContain('X-Entity-Ref-ID: cli-1');
    // The same idempotency key replays the first answer: no second email.
    const again = await ok([
      '--json',
      'send',
      '--from',
      SANDBOX_FROM,
      '--to',
      account.email,
      '--subject',
      'From the CLI',
      '--text',
      'Hello from flags',
      '--tag',
      'source=cli',
      '--header',
      'X-Entity-Ref-ID: cli-1',
      '--attach',
      join(dir, 'notes.txt'),
      '--idempotency-key',
      `cli-${account.id}`,
    ]);
    expect(JSON.parse(again.stdout).id).toBe(id);
  });

  it('sends an .eml file (flags override its subject) and the email is delivered with its attachment', async () => {
    const eml = [
      `From: Eml Sender <eml@sandbox.mailservice.dev>`,
      `To: ${account.email}`,
      'Subject: from the file',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Body of the eml',
      '--b1',
      'Content-Type: text/csv; name="rows.csv"',
      'Content-Disposition: attachment; filename="rows.csv"',
      '',
      'a,b',
      '--b1--',
      '',
    ].join('\r\n');
    writeFileSync(join(dir, 'message.eml'), eml);
    const run = await ok(['--json', 'send', '--eml', join(dir, 'message.eml'), '--subject', 'Overridden subject']);
    const { id } = JSON.parse(run.stdout);
    const email = await waitForStatus(account, id, 'delivered');
    expect(email).toMatchObject({ from: 'Eml Sender <eml@sandbox.mailservice.dev>', subject: 'Overridden subject', to: [account.email] });
    expect(email.attachments).toEqual([expect.objectContaining({ filename: 'rows.csv' })]);
  });

  it('adds a domain (its DNS records as a table), and verifies it by name once they are published', async () => {
    const name = uniqueDomain();
    const added = await ok(['domains', 'add', name]);
    expect(added.stdout).toContain(`Added ${name} (dom_`);
    expect(added.stdout).toMatch(/TYPE\s+NAME\s+VALUE\s+PURPOSE\s+REQUIRED\s+STATUS/);
    expect(added.stdout).toMatch(new RegExp(`TXT\\s+_service\\.${name.replace(/\./g, '\\.')}\\s+service-verification=`));
    const listed = JSON.parse((await ok(['--json', 'domains', 'get', name])).stdout).domain;
    expect(listed.status).toBe('pending');
    await publishAll(listed.records);
    const verified = await ok(['domains', 'verify', name]);
    expect(verified.stdout).toMatch(/status:\s+verified/);
    expect((await ok(['domains', 'list'])).stdout).toMatch(new RegExp(`${listed.id}\\s+${name.replace(/\./g, '\\.')}\\s+verified`));
  });

  it("prints a domain's health (checked now: the records it misses, with what to publish; --now again once published) and its DMARC figures (none yet)", async () => {
    const name = uniqueDomain();
    const domain = JSON.parse((await ok(['--json', 'domains', 'add', name])).stdout).domain;
    const health = await ok(['domains', 'health', name]);
    expect(health.stdout).toMatch(
      new RegExp(
        `^${name.replace(/\./g, '\\.')} \\(${domain.id}\\): checked \\S+, next check \\S+: \\d+ open findings \\(3 high, \\d+ low\\)\n`,
      ),
    );
    expect(health.stdout).toMatch(/IMPACT\s+STATUS\s+CHECK\s+TYPE\s+RECORD/);
    expect(health.stdout).toMatch(new RegExp(`high\\s+open\\s+spf\\s+spf_missing\\s+TXT ${name.replace(/\./g, '\\.')} v=spf1 `));
    await publishAll(domain.records);
    const now = JSON.parse((await ok(['--json', 'domains', 'health', domain.id, '--now'])).stdout);
    expect(now).toMatchObject({ object: 'domain_health', domain_id: domain.id, summary: { high: 0 } });
    expect(now.findings.filter((f: { status: string }) => f.status === 'fixed').map((f: { type: string }) => f.type)).toEqual(
      expect.arrayContaining(['spf_missing', 'dkim_missing', 'dmarc_missing']),
    );
    const dmarc = await ok(['domains', 'dmarc', name, '--since', '2026-01-01', '--until', '2026-01-31']);
    expect(dmarc.stdout).toBe(
      `${name} 2026-01-01..2026-01-31: 0 reports\ntotals: 0 messages, 0% passed DMARC\nours:   0 messages, 0% passed DMARC\nothers: 0 messages, 0% passed DMARC\n\nno sources reported\n`,
    );
  });

  it("hosts a receiving domain's MTA-STS policy by name (pending_certificate with the records to publish), shows it, stops it (a 404 after), and prints the 400 for a domain that does not receive", async () => {
    const name = uniqueDomain();
    const escaped = name.replace(/\./g, '\\.');
    const domain = JSON.parse((await ok(['--json', 'domains', 'add', name, '--inbound'])).stdout).domain;
    await publishAll(domain.records);
    expect((await ok(['domains', 'verify', name])).stdout).toMatch(/status:\s+verified/);
    const hosted = await ok(['domains', 'mta-sts', name, '--mode', 'testing']);
    expect(hosted.stdout.split('\n')[0]).toBe(
      `MTA-STS policy of inbound.${name} (${domain.id}): pending_certificate, mode testing, max_age 604800 s`,
    );
    expect(hosted.stdout).toContain(`policy url: https://mta-sts.inbound.${name}/.well-known/mta-sts.txt\n`);
    const shown = JSON.parse((await ok(['--json', 'domains', 'mta-sts', domain.id])).stdout);
    expect(shown).toMatchObject({
      object: 'mta_sts_hosting',
      domain_id: domain.id,
      policy_domain: `inbound.${name}`,
      status: 'pending_certificate',
      mode: 'testing',
    });
    const text = await ok(['domains', 'mta-sts', name]);
    expect(text.stdout).toMatch(/PURPOSE\s+TYPE\s+NAME\s+VALUE\s+REQUIRED\s+STATUS\s+FOUND/);
    expect(text.stdout).toMatch(
      new RegExp(`\npolicy\\s+TXT\\s+_mta-sts\\.inbound\\.${escaped}\\s+v=STSv1; id=${shown.policy_id}\\s+yes\\s+pending`),
    );
    expect(text.stdout).toMatch(
      new RegExp(
        `\ntls_rpt\\s+TXT\\s+_smtp\\._tls\\.inbound\\.${escaped}\\s+v=TLSRPTv1; rua=mailto:tls-reports@inbound\\.${escaped}\\s+no\\s+pending`,
      ),
    );
    const stopped = await ok(['domains', 'mta-sts', name, '--delete']);
    expect(stopped.stdout).toBe(
      `stopped hosting the MTA-STS policy of ${domain.id}: no longer served; its certificate and host are deleted within minutes\n`,
    );
    const gone = await cli(['domains', 'mta-sts', name]);
    expect(gone.status).toBe(1);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toContain(`(not_found, HTTP 404)`);
    const sending = uniqueDomain();
    await ok(['domains', 'add', sending]);
    const refused = await cli(['domains', 'mta-sts', sending, '--mode', 'testing']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`Error: ${sending} does not receive mail: a hosted MTA-STS policy is for its receiving subdomain`);
    expect(refused.stderr).toContain('(validation_error, HTTP 400)');
  });

  it('creates a key (secret printed once), lists it, revokes it, and the revoked key then fails with exit 1 and the API message', async () => {
    const created = JSON.parse(
      (await ok(['--json', 'keys', 'create', '--name', 'cli-key', '--scopes', 'emails:send,account:read'])).stdout,
    );
    expect(created.api_key).toMatchObject({ name: 'cli-key', scopes: ['emails:send', 'account:read'] });
    expect(created.secret).toMatch(/^svc_/);
    const text = await ok(['keys', 'create', '--name', 'cli-text-key']);
    expect(text.stdout).toMatch(/secret: svc_/);
    expect(text.stderr).toContain('shown only once');
    expect((await ok(['keys', 'list'])).stdout).toMatch(new RegExp(`${created.api_key.id}\\s+cli-key\\s+emails:send,account:read`));
    expect((await ok(['emails', 'list'], { MAILSERVICE_API_KEY: created.secret })).status).toBe(0);
    expect((await ok(['keys', 'revoke', created.api_key.id])).stdout).toBe(`revoked ${created.api_key.id}\n`);
    const refused = await cli(['emails', 'list'], { MAILSERVICE_API_KEY: created.secret });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^Error: .+\(HTTP 401\)/);
  });

  it('fails with exit 1 and the API message for an unknown key, and exit 2 for a usage error', async () => {
    const bad = await cli(['emails', 'list'], { MAILSERVICE_API_KEY: 'svc_not_a_real_key' });
    const direct = await api('GET', '/emails', { key: 'svc_not_a_real_key' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(`Error: ${direct.body.error.message} (HTTP 401)`);
    const json = await cli(['--json', 'emails', 'list'], { MAILSERVICE_API_KEY: 'svc_not_a_real_key' });
    expect(JSON.parse(json.stderr)).toEqual(direct.body);
    const usage = await cli(['send', '--no-such-flag']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("unknown option '--no-such-flag'");
    const missing = await cli(['emails', 'get', 'msg_01AAAAAAAAAAAAAAAAAAAAAAAA']);
    expect(missing).toMatchObject({ status: 1, stderr: expect.stringContaining('(not_found, HTTP 404)') });
  });

  it('imports a suppressions CSV in batches with progress and a summary, and exports the list back (round trip)', async () => {
    const fresh = await newAccount();
    const addresses = Array.from({ length: 7 }, (_, i) => `person${i}@example.org`);
    const csv = [
      'email,reason',
      ...addresses.map((a, i) => (i === 2 ? `"${a.toUpperCase()}",bounce` : `${a},manual`)),
      'not-an-address,manual',
      `${addresses[0]},manual`,
      '"broken,line',
    ].join('\n');
    writeFileSync(join(dir, 'in.csv'), `${csv}\n`);
    const imported = await ok(['suppressions', 'import', join(dir, 'in.csv'), '--batch-size', '3'], { MAILSERVICE_API_KEY: fresh.key });
    expect(imported.stdout).toContain('10 lines: 7 added, 1 skipped (already listed or repeated), 2 refused');
    expect(imported.stdout).toContain('1 with reason bounce added as manual');
    expect(imported.stdout).toContain('line 9: "not-an-address" is not an email address');
    expect(imported.stdout).toContain('line 11: a quoted field is not closed');
    expect(imported.stderr).toContain('suppressions: 3/7 lines');
    expect(imported.stderr).toContain('suppressions: 7/7 lines (100%)');
    // Again: everything already listed.
    const again = JSON.parse(
      (await ok(['--json', 'suppressions', 'import', join(dir, 'in.csv')], { MAILSERVICE_API_KEY: fresh.key })).stdout,
    );
    expect(again).toMatchObject({ added: 0, skipped: 8, refused: 2 });

    // The listing reads an index (eventually consistent): export until all seven are there.
    let exported: string[][] = [];
    for (let i = 0; i < 30 && exported.length < 8; i++) {
      await ok(['suppressions', 'export', '--out', join(dir, 'out.csv')], { MAILSERVICE_API_KEY: fresh.key });
      exported = readFileSync(join(dir, 'out.csv'), 'utf8')
        .trim()
        .split('\r\n')
        .map((line) => line.split(','));
      if (exported.length < 8) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(exported[0]).toEqual(['email', 'reason', 'scope', 'tenant', 'created_at']);
    expect(
      exported
        .slice(1)
        .map((row) => row[0])
        .sort(),
    ).toEqual([...addresses].sort());
    expect(exported.slice(1).every((row) => row[1] === 'manual' && row[2] === 'account')).toBe(true);
    // The export imports into another account as is.
    const other = await newAccount();
    const roundTrip = JSON.parse(
      (await ok(['--json', 'suppressions', 'import', join(dir, 'out.csv')], { MAILSERVICE_API_KEY: other.key })).stdout,
    );
    expect(roundTrip).toMatchObject({ lines: 7, added: 7, skipped: 0, refused: 0 });
    const check = await api('GET', `/suppressions?email=${addresses[6]}`, { key: other.key });
    expect(check.body.suppressions).toEqual([expect.objectContaining({ email: addresses[6], reason: 'manual' })]);
  });

  it('validates addresses from the arguments and from a file of more than one batch, with progress', async () => {
    const withMx = uniqueDomain();
    const missing = uniqueDomain();
    await publish(withMx, 'MX', [`10 mx.${withMx}`]);
    const run = await ok(['validate', `jane@${withMx}`, `info@${withMx}`, `jane@${missing}`]);
    expect(run.stdout).toMatch(/^EMAIL\s+VERDICT\s+SCORE\s+REASONS\s+SUGGESTION$/m);
    expect(run.stdout).toMatch(new RegExp(`^jane@${withMx.replace(/\./g, '\\.')}\\s+valid\\s+1\\s+-\\s+-$`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^info@${withMx.replace(/\./g, '\\.')}\\s+risky\\s+0\\.8\\s+role_address\\s+-$`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^jane@${missing.replace(/\./g, '\\.')}\\s+invalid\\s+0\\.05\\s+no_mail_host\\s+-$`, 'm'));
    expect(run.stdout.trim().split('\n').at(-1)).toBe('3 addresses: 1 valid, 1 risky, 1 invalid');

    const listed = Array.from({ length: 120 }, (_, i) => (i % 40 === 39 ? `person${i}@${missing}` : `person${i}@${withMx}`));
    writeFileSync(join(dir, 'addresses.txt'), `# to check\n${listed.join('\n')}\n`);
    const file = await ok(['--json', 'validate', '--file', join(dir, 'addresses.txt')]);
    const { validations } = JSON.parse(file.stdout) as { validations: { email: string; verdict: string }[] };
    expect(validations.map((v) => v.email)).toEqual(listed);
    expect(validations.filter((v) => v.verdict === 'invalid').map((v) => v.email)).toEqual([
      `person39@${missing}`,
      `person79@${missing}`,
      `person119@${missing}`,
    ]);
    expect(file.stderr).toContain('validate: 100/120 addresses (83%) invalid 2, risky 0');
    expect(file.stderr).toContain('validate: 120/120 addresses (100%) invalid 3, risky 0');
  });

  it("events tail --once prints each recent email's status", async () => {
    const sent = await ok(['--json', 'send', '--from', SANDBOX_FROM, '--to', account.email, '--subject', 'Tail me', '--text', 'x']);
    const { id } = JSON.parse(sent.stdout);
    await waitForStatus(account, id, 'delivered');
    let tail: CliRun = { status: -1, stdout: '', stderr: '' };
    for (let i = 0; i < 30 && !tail.stdout.includes(id); i++) {
      tail = await ok(['events', 'tail', '--once', '--limit', '100']);
      if (!tail.stdout.includes(id)) await new Promise((resolve) => setTimeout(resolve, 500)); // the listing is eventually consistent
    }
    expect(tail.stdout).toContain(`email ${id} delivered  to ${account.email}  "Tail me"`);
    const json = await ok(['--json', 'events', 'tail', '--once', '--limit', '100']);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toContainEqual({ kind: 'email', previous_status: null, email: expect.objectContaining({ id, status: 'delivered' }) });
  });

  it('runs an import from the fake SendGrid to its end, showing progress, then the report', async () => {
    const importer = await newAccount({ plan: 'pro' });
    const key = providerKey('SG.');
    // The fixture's domains renamed: domain names are unique across the shared stack's accounts, and
    // imports-sendgrid.test.ts imports the fixture's own names.
    const suffix = key
      .slice(-8)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
    const data = JSON.parse(JSON.stringify(fixtureData('sendgrid', 600)).replace(/(acme|news)-sg\.example/g, `$1-cli-${suffix}.example`));
    await seedProvider({ provider: 'sendgrid', api_key: key, data });
    await publishFixtureDns(sendgridFixture.publishedDns, ['hooks.acme.example', 'ops.acme.example']);
    const run = await ok(['imports', 'start', '--provider', 'sendgrid', '--provider-key', key], { MAILSERVICE_API_KEY: importer.key });
    expect(run.stderr).toMatch(
      /import from sendgrid: \d+\/4 resources \(\d+%\) request \d+: domains 2 found, webhooks 2 found, templates 6 found, suppressions 617 found/,
    );
    expect(run.stderr).toMatch(/import from sendgrid: 4\/4 resources \(100%\)/);
    expect(run.stdout).toMatch(/^import mig_\w+ from sendgrid: partial, \d+ requests?/);
    expect(run.stdout).toMatch(/suppressions\s+found 617, imported 611, already suppressed 3, skipped 3/);
    expect(run.stdout).toMatch(/webhook https:\/\/\S+ \(wh_\w+, disabled\): signing secret whsec_\S+ \(shown once\)/);
    const id = /^import (mig_\w+)/.exec(run.stdout)![1]!;
    const status = await ok(['--json', 'imports', 'status', id], { MAILSERVICE_API_KEY: importer.key });
    expect(JSON.parse(status.stdout).migration).toMatchObject({ id, status: 'partial', has_more: false });
    expect(run.stdout).not.toContain(key);
  });
});
