/**
 * Child process of ./synthesize.ts: synthesizes the CDK app (infra/stacks) as `cdk synth` does, with the
 * feature flags of cdk.json, the context given, path metadata on (`aws:cdk:path`, as the CDK CLI turns
 * it on) and stub function code (infra/stub-functions.ts: the template is the real one but for asset
 * hashes). Writes the stack's template to the file given. Run with tsx:
 *   tsx localstack/cloud/template/synth-entry.ts <out.json> '<context JSON>'
 * A child process, so aws-cdk-lib (160 MB, ~1 s to load) never loads into the local cloud itself.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { MailserviceStack } from '#infra/stacks/mailservice-stack';
import { cdkJsonContext, stubFunctionsDir } from '#infra/stub-functions';

const [outFile, contextJson = '{}'] = process.argv.slice(2);
if (!outFile) throw new Error('usage: synth-entry.ts <out.json> [context JSON]');
const context = JSON.parse(contextJson) as Record<string, unknown>;
const stackName = typeof context.stackName === 'string' ? context.stackName : 'Mailservice';
const functionsDir = stubFunctionsDir();
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailservice-cdk-'));
try {
  // Without aws-cdk-lib's built-in template validation (a WebAssembly rule engine: 3 s of a synthesis's 6 s of
  // CPU, at every stack start after an edit and for each setting a test stack is started with): `cdk synth`
  // and `cdk deploy` run it (cdk.json's validateAgainstDefaultRules makes a finding an error), and so does
  // test/infra/stack.test.ts, which fails on any finding.
  const app = new App({
    outdir,
    context: { ...cdkJsonContext(), 'aws:cdk:enable-path-metadata': true, ...context },
    builtinCloudFormationValidation: false,
  });
  new MailserviceStack(app, stackName, { functionsDir });
  const assembly = app.synth();
  const template = assembly.getStackByName(stackName).template as unknown;
  fs.writeFileSync(outFile, JSON.stringify(template));
} finally {
  fs.rmSync(functionsDir, { recursive: true, force: true });
  fs.rmSync(outdir, { recursive: true, force: true });
}
