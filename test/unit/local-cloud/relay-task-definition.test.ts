/**
 * What the local cloud reads to run the relay task as ECS would: the image's ENV and CMD from its
 * Dockerfile (localstack/cloud/relay-task/relay-task-image.ts), the container's Secrets resolved as ECS resolves
 * Secrets Manager references (localstack/cloud/relay-task/relay-task-secrets.ts), and what ECS sets on Fargate
 * instead of Lambda's variables (localstack/cloud/lambda/function-environment.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { functionEnvironment } from '#localstack/cloud/lambda/function-environment';
import { readRelayImage } from '#localstack/cloud/relay-task/relay-task-image';
import { parseSecretReference, resolveTaskSecrets } from '#localstack/cloud/relay-task/relay-task-secrets';
import { PROJECT_ROOT, RELAY_DOCKERFILE } from '#infra/functions';
import { temporaryDir } from '../../support/temporary-dirs';

const dockerfile = (text: string) => {
  const file = join(temporaryDir('relay-image-'), 'Dockerfile');
  writeFileSync(file, text);
  return file;
};

describe('the relay image as the local cloud reads it', () => {
  it("reads the project's Dockerfile: its ENV and the bundle its CMD runs", () => {
    expect(readRelayImage(join(PROJECT_ROOT, RELAY_DOCKERFILE))).toEqual({
      env: { NODE_ENV: 'production', NODE_OPTIONS: '--enable-source-maps' },
      script: 'index.js',
    });
  });

  it('joins continued lines, reads quoted values, and lets a later ENV win', () => {
    const image = readRelayImage(dockerfile('FROM node\nENV A=1 \\\n  B="two words"\nENV A=3\nCMD ["node", "main.js"]\n'));
    expect(image).toEqual({ env: { A: '3', B: 'two words' }, script: 'main.js' });
  });

  it.each([
    ['a shell-form CMD', 'CMD node index.js'],
    ['another program', 'CMD ["bun", "index.js"]'],
    ['arguments', 'CMD ["node", "index.js", "--port", "1"]'],
    ['no CMD', ''],
  ])('refuses %s', (_what, cmd) => {
    expect(() => readRelayImage(dockerfile(`FROM node\n${cmd}\n`))).toThrow(/CMD only in the form \["node", "<file>"\]/);
  });

  it('refuses the legacy `ENV name value` form', () => {
    expect(() => readRelayImage(dockerfile('FROM node\nENV A 1\nCMD ["node", "index.js"]\n'))).toThrow(/ENV only in the form NAME=value/);
  });
});

describe("the relay task's secrets, resolved as ECS does", () => {
  const arn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:SmtpRelayTlsSecret-AbCdEf';
  const tls = { key: '-----BEGIN PRIVATE KEY-----', cert: '-----BEGIN CERTIFICATE-----' };

  it('parses `<arn>:<json-key>:<stage>:<id>` and a bare ARN', () => {
    expect(parseSecretReference(`${arn}:key::`)).toEqual({ secretArn: arn, jsonKey: 'key', versionStage: '', versionId: '' });
    expect(parseSecretReference(arn)).toEqual({ secretArn: arn, jsonKey: '', versionStage: '', versionId: '' });
    expect(parseSecretReference('arn:aws:ssm:us-east-1:000000000000:parameter/x')).toBeNull();
  });

  it("answers the TLS secret's key and cert with the local certificate", () => {
    expect(resolveTaskSecrets({ SMTP_TLS_KEY: `${arn}:key::`, SMTP_TLS_CERT: `${arn}:cert::` }, tls)).toEqual({
      SMTP_TLS_KEY: tls.key,
      SMTP_TLS_CERT: tls.cert,
    });
  });

  it.each([
    ['a Parameter Store reference', 'arn:aws:ssm:us-east-1:000000000000:parameter/x', /not a Secrets Manager reference/],
    ['another JSON key', `${arn}:password::`, /JSON key "password"/],
    ['the whole secret', arn, /JSON key ""/],
    ['a version stage', `${arn}:key:AWSPREVIOUS:`, /names a version/],
  ])('refuses %s', (_what, valueFrom, message) => {
    expect(() => resolveTaskSecrets({ X: valueFrom }, tls)).toThrow(message);
  });
});

describe('the environment of a container on Fargate', () => {
  it("has ECS's variables, not Lambda's", () => {
    const env = functionEnvironment({
      template: { TABLE_NAME: 't' },
      managed: new Set(['TABLE_NAME']),
      base: { LOG_LEVEL: 'silent', AWS_PROFILE: 'dev' },
      runtime: { container: 'fargate', region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 's' } },
      local: {},
    });
    expect(env).toEqual({
      LOG_LEVEL: 'silent',
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_EXECUTION_ENV: 'AWS_ECS_FARGATE',
      AWS_ACCESS_KEY_ID: 'a',
      AWS_SECRET_ACCESS_KEY: 's',
      TABLE_NAME: 't',
    });
  });
});
