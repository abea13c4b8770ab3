/**
 * The local cloud synthesizes its template without aws-cdk-lib's built-in CloudFormation validation
 * (localstack/cloud/template/synth-entry.ts: half of a synthesis's CPU), on the promise that `cdk synth`,
 * `cdk deploy` and test/infra/stack.test.ts run it with its findings as errors (docs/local-cloud/template.md).
 * That holds while cdk.json keeps the feature flag that turns a finding into a synthesis error.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, CfnResource, Stack } from 'aws-cdk-lib';
import { cdkJsonContext } from '#infra/stub-functions';
import { temporaryDir } from '../support/temporary-dirs';

const ROOT = path.join(__dirname, '..', '..');

it("cdk.json makes the built-in validation's findings synthesis errors", () => {
  const cdkJson = JSON.parse(readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  expect(cdkJson.context['@aws-cdk/core:validateAgainstDefaultRules']).toBe(true);
});

it("an app with cdk.json's context fails to synthesize a template with a finding, naming it", () => {
  // Its own output folder, removed after the file (without one, App leaves a cdk.outXXXXXX folder in the temp dir).
  const app = new App({ context: cdkJsonContext(), outdir: temporaryDir('findings-') });
  const stack = new Stack(app, 'Findings');
  // SQS keeps a message at least 60 s (AWS::SQS::Queue MessageRetentionPeriod: 60-1,209,600).
  new CfnResource(stack, 'Queue', { type: 'AWS::SQS::Queue', properties: { MessageRetentionPeriod: 10 } });
  expect(() => app.synth()).toThrow(/MessageRetentionPeriod: 10 is less than the minimum of 60/);
});
