/**
 * What a start loads (CHANGELOG 2026-11-27): the SMTP relay's container (functions/smtp-relay/main.ts, the relay
 * and the MX listener) loads mailauth on the first received message, not at its start, and only the AWS clients
 * it builds (each client a module of its own, shared/adapters/aws/client-options.ts); the local SES's DKIM
 * signing loads mailauth when a BYODKIM identity first signs. Each is read from a Node process of its own: the
 * packages in its module cache once the module has loaded (the relay's start stops at its missing certificate,
 * after every import and before it listens).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** Prints, at exit, the packages in the process's module cache (one JSON line on stderr). */
const REPORT_PACKAGES = `process.on('exit', () => {
  const names = Object.keys(require.cache).map((file) => file.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/)?.[1]).filter(Boolean);
  process.stderr.write('PACKAGES ' + JSON.stringify([...new Set(names)]) + '\\n');
});`;

function packagesLoadedBy(args: string[]): { packages: string[]; output: string; stdout: string } {
  const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', '--eval', `${REPORT_PACKAGES}\n${args.join('\n')}`], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent', SMTP_TLS_KEY_FILE: '', SMTP_TLS_CERT_FILE: '', SMTP_TLS_KEY: '', SMTP_TLS_CERT: '' },
    timeout: 60_000,
  });
  const line = run.stderr.split('\n').find((text) => text.startsWith('PACKAGES '));
  if (!line) throw new Error(`no report of the packages loaded:\n${run.stdout}\n${run.stderr}`);
  return { packages: JSON.parse(line.slice('PACKAGES '.length)) as string[], output: run.stderr, stdout: run.stdout };
}

describe('what a start loads', () => {
  it('the relay container: every module of its start, without mailauth nor the clients it never builds (ACM, API Gateway, Route 53, SES)', () => {
    const { packages, output } = packagesLoadedBy([`require(${JSON.stringify(join(ROOT, 'functions/smtp-relay/main.ts'))});`]);
    // It got through its imports to the start itself (which stops at the missing certificate).
    expect(output).toMatch(/smtp relay failed to start: No TLS certificate/);
    // What it builds is there: the relay's and the MX listener's servers, the store, the queues, the bucket.
    expect(packages).toEqual(
      expect.arrayContaining(['smtp-server', 'mailparser', '@aws-sdk/client-dynamodb', '@aws-sdk/client-sqs', '@aws-sdk/client-s3']),
    );
    expect(packages.filter((name) => /^(mailauth|joi)$|^@aws-sdk\/client-(acm|apigatewayv2|route-53|sesv2)$/.test(name))).toEqual([]);
  }, 60_000);

  it('the local SES: its DKIM signing module loads without mailauth; the first BYODKIM signature loads it', () => {
    const signing = JSON.stringify(join(ROOT, 'localstack/emulators/ses/dkim-signing.ts'));
    expect(packagesLoadedBy([`require(${signing});`]).packages).not.toContain('mailauth');
    // A store whose identity has a BYODKIM key: signing the message needs mailauth.
    const signed = packagesLoadedBy([
      `const { generateKeyPairSync } = require('node:crypto');`,
      `const key = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' });`,
      `const identity = { dkim: { origin: 'EXTERNAL', selector: 's1', privateKeyPem: key, status: 'SUCCESS' } };`,
      `require(${signing}).signWithByodkim({ getIdentity: () => identity }, Buffer.from('From: a@x.example\\r\\n\\r\\nhi\\r\\n'), 'a@x.example')`,
      `  .then((out) => { if (!out.toString().startsWith('DKIM-Signature:')) throw new Error('not signed: ' + out); console.log('signed'); });`,
    ]);
    expect(signed.stdout).toBe('signed\n');
    expect(signed.packages).toContain('mailauth');
  }, 60_000);
});
