/**
 * The environment a deployed function sees locally: its template's variables, Lambda's runtime variables and
 * this machine's endpoints, and of the process's own environment only what the template does not manage.
 */
import { functionEnvironment, templateManagedNames } from '#localstack/cloud/lambda/function-environment';

const runtime = {
  functionName: 'Mailservice-ApiEmails',
  memoryMb: 1024,
  runtime: 'nodejs22.x',
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
};

describe("a function's environment on the local cloud", () => {
  const templates: Record<string, string>[] = [
    { TABLE_NAME: 'Mailservice-Table', SEND_QUEUE_URL: 'http://q/send' },
    { MAIL_BUCKET: 'bucket' },
  ];
  const managed = templateManagedNames(templates);

  it("has its template variables and not another function's, even when the process has them", () => {
    const env = functionEnvironment({
      template: templates[0]!,
      managed,
      base: { MAIL_BUCKET: 'leaked', TABLE_NAME: 'stale' },
      runtime,
      local: {},
    });
    expect(env.TABLE_NAME).toBe('Mailservice-Table');
    expect(env.MAIL_BUCKET).toBeUndefined();
  });

  it('drops settings and resource names the process has but the template does not give it (SANDBOX_DOMAIN, SECRETS_KEY_ID)', () => {
    const env = functionEnvironment({
      template: templates[0]!,
      managed,
      base: { SANDBOX_DOMAIN: 'x.test', SECRETS_KEY_ID: 'key' },
      runtime,
      local: {},
    });
    expect(env.SANDBOX_DOMAIN).toBeUndefined();
    expect(env.SECRETS_KEY_ID).toBeUndefined();
  });

  it("keeps the process's tuning knobs, sets Lambda's runtime variables, and lets this machine's endpoints win", () => {
    const env = functionEnvironment({
      template: { ...templates[0]!, LINKS_BASE_URL: 'https://api.example', LOG_LEVEL: 'warn' },
      managed,
      base: { WEBHOOK_RETRY_DELAYS: '1,1', LOG_LEVEL: 'silent', AWS_PROFILE: 'mine' },
      runtime,
      local: { AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:1', LINKS_BASE_URL: 'https://tunnel.example' },
    });
    expect(env).toMatchObject({
      WEBHOOK_RETRY_DELAYS: '1,1',
      AWS_REGION: 'us-east-1',
      AWS_LAMBDA_FUNCTION_NAME: 'Mailservice-ApiEmails',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:1',
      LINKS_BASE_URL: 'https://tunnel.example',
    });
    // The developer's own AWS settings never reach a function (Lambda gives it its role's credentials).
    expect(env.AWS_PROFILE).toBeUndefined();
    // LOG_LEVEL is a setting: the template's (the local cloud synthesizes it from its own LOG_LEVEL), not the process's.
    expect(env.LOG_LEVEL).toBe('warn');
  });
});
