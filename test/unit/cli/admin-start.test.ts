/**
 * The operator CLI (`npm run admin`, functions/cli/admin.ts) loads a command's module when it runs
 * (functions/cli/admin-commands/): each command starts with the AWS clients it uses and no other. With every
 * command's services built at start (buildServices), `admin account create` loaded the SES, S3, KMS, ACM,
 * API Gateway, Route 53, SQS and Scheduler clients as well: 0.66 s of CPU against 0.35 s (docs/local-cloud/bundles.md).
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..', '..');

/** The AWS SDK clients a run of `admin <args>` required, and what it printed. */
async function clientsLoadedBy(args: string[]): Promise<{ clients: string[]; stderr: string }> {
  const probe = [
    "const Module = require('node:module');",
    'const seen = new Set();',
    'const load = Module._load;',
    'Module._load = function (request, ...rest) { seen.add(request); return load.call(this, request, ...rest); };',
    "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify([...seen].filter((r) => r.startsWith('@aws-sdk/client-'))) + '\\n'));",
    `process.argv = [process.argv[0], 'admin', ...${JSON.stringify(args)}];`,
    `require(${JSON.stringify(join(ROOT, 'localstack', 'admin.cjs'))});`,
  ].join('\n');
  // A target that refuses connections: the command loads, builds its services and fails on its first call.
  const env = {
    ...process.env,
    TABLE_NAME: 'Mailservice-Table',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'example',
    AWS_MAX_ATTEMPTS: '1',
    AWS_ENDPOINT_URL: 'http://127.0.0.1:1',
  };
  const { stderr } = await run(process.execPath, ['-e', probe], { cwd: ROOT, env }).catch((error: { stderr: string; code: number }) => ({
    stderr: error.stderr,
  }));
  const loaded = /LOADED (.*)/.exec(stderr);
  if (!loaded) throw new Error(`no list of loaded modules; stderr:\n${stderr}`);
  return { clients: (JSON.parse(loaded[1]!) as string[]).sort(), stderr };
}

test('account create loads the DynamoDB client alone, and fails on its first call to the table', async () => {
  const { clients, stderr } = await clientsLoadedBy(['--aws', 'account', 'create', '--email', 'ops@example.com']);
  expect(stderr).toMatch(/ECONNREFUSED/);
  expect(clients).toEqual(['@aws-sdk/client-dynamodb']);
}, 30_000);

test('ses quota adds SES, mta-sts quota adds ACM and API Gateway: each command its own clients', async () => {
  expect((await clientsLoadedBy(['--aws', 'ses', 'quota'])).clients).toEqual(['@aws-sdk/client-dynamodb', '@aws-sdk/client-sesv2']);
  expect((await clientsLoadedBy(['--aws', 'mta-sts', 'quota'])).clients).toEqual([
    '@aws-sdk/client-acm',
    '@aws-sdk/client-apigatewayv2',
    '@aws-sdk/client-dynamodb',
  ]);
}, 30_000);
