/**
 * The SMTP relay and MX task runs as ECS runs its container (localstack/cloud/relay-task/relay-task.ts): a process of
 * its own with the task definition's environment and secrets (not a Lambda function's), its SDK calls
 * authorized as the task role, the local clock reaching it, its listeners in /health, ECS's stop (SIGTERM:
 * a message in DATA finishes with its 250, new connections are refused, the process exits 0), and gone
 * with the local cloud however it ends (SIGKILL included). Two stacks of their own: one deploys the
 * template with the task role's SQS statements removed (and a longer close timeout for the drain), the
 * other is SIGKILLed.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalStackInfo } from '#localstack/cloud/cloud';
import { readStackFile } from '#localstack/cloud/stack/stack-file';
import type { CfnTemplate } from '#localstack/cloud/template/cfn-types';
import { deployedTemplate, grantsService, removeStatements, writeTemplate } from '../support/template-edits';
import { waitFor } from '../support/wait';
import { spawnStack, type SpawnedStack } from './harness/spawn-stack';

const SHARED_STACK_DIR = process.env.TEST_STACK_DATA_DIR!;

/** The names of the relay task definition's container Environment, and its role's logical id. */
function relayTaskOf(template: CfnTemplate): { environment: string[]; roleId: string } {
  const task = Object.values(template.Resources).find((resource) => resource.Type === 'AWS::ECS::TaskDefinition')!;
  const container = (task.Properties!.ContainerDefinitions as { Environment: { Name: string }[] }[])[0]!;
  const roleId = (task.Properties!.TaskRoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return { environment: container.Environment.map((v) => v.Name), roleId };
}

function environOf(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** Whether a process is alive (a zombie is not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Live relay task processes started for the stack in `dataDir` (by their command and DATA_DIR). */
function relayTasksOf(dataDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || !alive(Number(entry))) continue;
    try {
      // Its program: the bundle (localstack/launch.cjs) or, from the sources, relay-task-entry.cjs.
      if (!/local-cloud-relay\.cjs|relay-task-entry\.cjs/.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) continue;
      if (environOf(Number(entry)).DATA_DIR === dataDir) pids.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

function refused(address: string): Promise<boolean> {
  const [host, port] = address.split(':') as [string, string];
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('the SMTP relay task, run as ECS runs its container (stacks of their own)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-relay-task-'));
  const killedDir = mkdtempSync(join(tmpdir(), 'mailservice-relay-kill-'));
  let own: SpawnedStack | undefined;
  let killed: SpawnedStack | undefined;
  let info: LocalStackInfo;
  let template: CfnTemplate;
  let harness: typeof import('./harness/stack');
  let smtp: typeof import('./harness/smtp');

  beforeAll(async () => {
    template = deployedTemplate(SHARED_STACK_DIR);
    removeStatements(template, { role: relayTaskOf(template).roleId }, grantsService('sqs'));
    [own, killed] = await Promise.all([
      spawnStack({
        dataDir,
        inMemory: true,
        timeoutMs: 120_000,
        env: { LOCAL_TEMPLATE_FILE: writeTemplate(dataDir, template), WEBHOOK_CA_FILE: '', SMTP_CLOSE_TIMEOUT_S: '30' },
      }),
      spawnStack({ dataDir: killedDir, inMemory: true, timeoutMs: 120_000, detached: true, env: { WEBHOOK_CA_FILE: '' } }),
    ]);
    info = readStackFile(dataDir) as LocalStackInfo;
    process.env.TEST_STACK_DATA_DIR = dataDir;
    harness = await import('./harness/stack');
    smtp = await import('./harness/smtp');
  }, 150_000);

  afterAll(async () => {
    await own?.stop();
    await killed?.killGroup();
    // The killed stack's whole group, whatever is left of it (its launcher has exited, so killGroup does nothing).
    try {
      if (killed?.child.pid) process.kill(-killed.child.pid, 'SIGKILL');
    } catch {
      // none left
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(killedDir, { recursive: true, force: true });
  });

  it('is a process of its own, child of the local cloud, with the container environment of the task definition', () => {
    const pid = info.smtp_pid!;
    expect(pid).toEqual(expect.any(Number));
    expect(pid).not.toBe(info.pid);
    expect(parentOf(pid)).toBe(info.pid);
    const env = environOf(pid);
    // What ECS sets on Fargate, not Lambda's runtime variables.
    expect(env).toMatchObject({ AWS_EXECUTION_ENV: 'AWS_ECS_FARGATE', AWS_REGION: info.region, AWS_DEFAULT_REGION: info.region });
    expect(Object.keys(env).filter((name) => name.startsWith('AWS_LAMBDA_'))).toEqual([]);
    // The image's ENV (infra/smtp-relay.Dockerfile).
    expect(env).toMatchObject({ NODE_ENV: 'production', NODE_OPTIONS: '--enable-source-maps' });
    // The task definition's Environment as deployed (stack.json's env has the resolved values), but for the
    // listeners' addresses and the close timeout, which the local cloud sets.
    const local = ['SMTP_PORT', 'MX_PORT', 'SMTP_CLOSE_TIMEOUT_S'];
    const names = relayTaskOf(template).environment.filter((name) => !local.includes(name));
    // Those are not in stack.json's env either: a test or script copying it into its environment would
    // give every stack it starts the container's SMTP_PORT 2587 (two such stacks collided in a whole run).
    for (const name of local) expect(info.env[name]).toBeUndefined();
    expect(names).toEqual(expect.arrayContaining(['TABLE_NAME', 'MAIL_BUCKET', 'INBOUND_QUEUE_URL', 'SMTP_MAX_CLIENTS']));
    expect(env).toMatchObject(Object.fromEntries(names.map((name) => [name, info.env[name]])));
    expect(env.TABLE_NAME).toMatch(/^Mailservice-/);
    expect(`${env.SMTP_HOST}:${env.SMTP_PORT}`).toBe(info.smtp);
    expect(`${env.MX_HOST}:${env.MX_PORT}`).toBe(info.mx);
    expect(env.SMTP_CLOSE_TIMEOUT_S).toBe('30');
    // Its Secrets (the TLS secret's "key" and "cert"), resolved to the local certificate.
    expect(env.SMTP_TLS_KEY).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(env.SMTP_TLS_CERT).toMatch(/^-----BEGIN CERTIFICATE-----/);
    // A function's variables that the task definition does not give the task are not there.
    expect(env.SECRETS_KEY_ID).toBeUndefined();
  });

  it('reports its listeners and their open connections in /health, counted in the task process (STARTTLS sessions too, until they close)', async () => {
    const { client } = await smtp.SmtpClient.connect();
    try {
      await client.command('EHLO client.test');
      await client.starttls();
      const health = await harness.api('GET', '/health');
      expect(health.body.smtp).toEqual({ address: info.smtp, state: 'up', connections: 1 });
      expect(health.body.mx).toEqual({ address: info.mx, state: 'up', connections: 0 });
    } finally {
      await client.quit();
    }
    await waitFor(
      async () => (await harness.api('GET', '/health')).body.smtp.connections === 0 || undefined,
      'the closed session no longer counted',
      10_000,
    );
  });

  it('makes its SDK calls as the task role: without SQS, the MX stores a message but cannot hand it on, answers 451 and the log says why', async () => {
    const { newAccount } = harness;
    const { receivingDomain } = await import('./harness/inbound');
    const account = await newAccount({ plan: 'scale', paymentMethod: true });
    const inbox = await receivingDomain(account);
    const [host, port] = info.mx!.split(':') as [string, string];
    const { client } = await smtp.SmtpClient.connect({ target: { host, port: Number(port) } });
    try {
      await client.command('EHLO sender.example-mail.test');
      const result = await client.transaction('someone@example.org', [inbox.address('denied')], 'Subject: t\r\n\r\nhello\r\n');
      expect(result.done?.code).toBe(451);
    } finally {
      await client.quit();
    }
    expect(own!.output()).toMatch(
      /iam: User: arn:aws:sts::\d+:assumed-role\/[^/]+\/smtp-relay is not authorized to perform: sqs:SendMessage on resource: arn:aws:sqs:\S+/,
    );
  });

  it('reads the local clock: a message relayed with the clock moved 3 days on is dated by it', async () => {
    const account = await harness.newAccount({ plan: 'scale', paymentMethod: true });
    const credential = await smtp.createSmtpCredential(account);
    const moved = await harness.api('PUT', '/_local/clock', { body: { offset_ms: 3 * 86_400_000 } });
    expect(moved.status).toBe(200);
    try {
      const sent = await smtp
        .transport(credential.password)
        .sendMail({ from: 'hello@sandbox.mailservice.dev', to: account.email, subject: 'later', text: 'hi' });
      const email = await harness.emailOf(account, smtp.queuedId(sent.response));
      const shift = Date.parse(email.created_at as string) - Date.now();
      expect(shift).toBeGreaterThan(3 * 86_400_000 - 120_000);
      expect(shift).toBeLessThan(3 * 86_400_000 + 120_000);
    } finally {
      await harness.api('DELETE', '/_local/clock');
    }
  });

  it('dies with the local cloud: SIGKILL to the local cloud leaves no relay process', async () => {
    const killedInfo = readStackFile(killedDir) as LocalStackInfo;
    const relayPid = killedInfo.smtp_pid!;
    expect(alive(relayPid)).toBe(true);
    expect(relayTasksOf(killedDir)).toEqual([relayPid]);
    process.kill(killedInfo.pid, 'SIGKILL');
    await waitFor(async () => !alive(relayPid) || undefined, 'the relay task gone with the local cloud', 15_000);
    // No relay process of that stack at all (its ports die with it; other stacks may take them at once, so they are not probed).
    expect(relayTasksOf(killedDir)).toEqual([]);
  });

  // Last: it stops this stack.
  it('drains on SIGTERM: a message in DATA finishes with its 250 while new connections are refused, then the task exits 0', async () => {
    const account = await harness.newAccount({ plan: 'scale', paymentMethod: true });
    const credential = await smtp.createSmtpCredential(account);
    const client = await smtp.SmtpClient.ready(credential.password);
    expect((await client.command('MAIL FROM:<hello@sandbox.mailservice.dev>')).code).toBe(250);
    expect((await client.command(`RCPT TO:<${account.email}>`)).code).toBe(250);
    expect((await client.command('DATA')).code).toBe(354);
    client.write(`From: hello@sandbox.mailservice.dev\r\nTo: ${account.email}\r\nSubject: draining\r\n\r\nfirst half\r\n`);

    const stopped = own!.stop('SIGTERM'); // the local cloud stops its task as ECS does: SIGTERM
    await waitFor(async () => (await refused(info.smtp!)) || undefined, 'the relay refusing new connections', 20_000);
    expect(alive(info.smtp_pid!)).toBe(true);
    client.write('second half\r\n.\r\n');
    const done = await client.reply(30_000);
    expect(done.code).toBe(250);
    expect(done.text).toMatch(/queued as msg_/);
    client.destroy();
    expect(await stopped).toBe(0);
    expect(own!.output()).toMatch(new RegExp(`SMTP relay task \\(pid ${info.smtp_pid}\\) exited with code 0\\n`));
    expect(existsSync(`/proc/${info.smtp_pid}`) && alive(info.smtp_pid!)).toBe(false);
  });
});
