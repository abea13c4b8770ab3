/**
 * The enforcement middleware (localstack/iam/middleware.ts) on SDK clients whose endpoint answers nothing
 * (127.0.0.1:1): a denied call never reaches the network and fails with the SDK's own exception built
 * from the synthesized AccessDenied response; an allowed call, a call in 'log' mode, a call with no
 * principal and a call after uninstall all go to the network (and fail there, with a connection error).
 * The same against the real emulators: test/integration/iam-enforcement-sdk.test.ts.
 */
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { PublishCommand, SNSClient, SNSServiceException } from '@aws-sdk/client-sns';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { AccessDeniedException as AcmAccessDenied, ACMServiceException, RequestCertificateCommand } from '@aws-sdk/client-acm';
import {
  AccessDeniedException as ApiGatewayAccessDenied,
  ApiGatewayV2ServiceException,
  CreateDomainNameCommand,
} from '@aws-sdk/client-apigatewayv2';
import { installIamEnforcement, runAs, type IamDecisionEvent, type Principal } from '#localstack/iam/install';
import { createAcmClient, createApiGatewayV2Client } from '#shared/adapters/aws/hosting-clients';
import { createS3Client } from '#shared/adapters/aws/s3-client';
import { createSqsClient } from '#shared/adapters/aws/sqs-client';
import type { Config } from '#shared/config/config';

const NOWHERE = 'http://127.0.0.1:1';
const config = { region: 'us-east-1', endpoints: { s3: NOWHERE, sqs: NOWHERE, acm: NOWHERE, apigatewayv2: NOWHERE } } as unknown as Config;
const QUEUE = `${NOWHERE}/000000000000/q`;
const principal: Principal = {
  functionName: 'fn',
  roleArn: 'arn:aws:iam::000000000000:role/path/FnRole',
  policies: [
    {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: 'arn:aws:sqs:us-east-1:000000000000:q' }],
    },
  ],
};
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
/** The SDK's wrapper of a refused connection: the call went to the network. */
const networkError = (error: unknown) => /ECONNREFUSED/.test((error as Error).message);

let events: IamDecisionEvent[];
beforeEach(() => {
  events = [];
  process.env.AWS_ACCESS_KEY_ID = credentials.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = credentials.secretAccessKey;
});

test('SNS (awsQuery): AuthorizationErrorException, 403, with the assumed-role session in the message', async () => {
  const uninstall = installIamEnforcement({ accountId: '000000000000', region: 'us-east-1', onDecision: (e) => events.push(e) });
  try {
    const sns = new SNSClient({ region: 'us-east-1', endpoint: NOWHERE, credentials, maxAttempts: 1 });
    uninstall.apply(sns);
    const error = await runAs(principal, () =>
      sns.send(new PublishCommand({ TopicArn: 'arn:aws:sns:us-east-1:000000000000:t', Message: 'x' })),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SNSServiceException);
    expect(error).toMatchObject({ name: 'AuthorizationErrorException', $metadata: { httpStatusCode: 403 } });
    expect((error as Error).message).toBe(
      'User: arn:aws:sts::000000000000:assumed-role/FnRole/fn is not authorized to perform: sns:Publish on resource: arn:aws:sns:us-east-1:000000000000:t because no identity-based policy allows the sns:Publish action',
    );
    expect(events).toMatchObject([
      {
        functionName: 'fn',
        operation: 'SNS.Publish',
        allowed: false,
        mode: 'enforce',
        requests: [{ action: 'sns:Publish', effect: 'ImplicitDeny', cached: false }],
      },
    ]);
  } finally {
    uninstall();
  }
});

test("ACM (awsJson1_1) and API Gateway v2 (restJson1): each client's own AccessDeniedException, with AWS's message", async () => {
  const uninstall = installIamEnforcement({ accountId: '000000000000', region: 'us-east-1' });
  try {
    const acm = await runAs(principal, () =>
      createAcmClient(config).send(new RequestCertificateCommand({ DomainName: 'mta-sts.inbound.example.com', ValidationMethod: 'DNS' })),
    ).catch((e: unknown) => e);
    expect(acm).toBeInstanceOf(AcmAccessDenied);
    expect(acm).toBeInstanceOf(ACMServiceException);
    expect(acm).toMatchObject({ name: 'AccessDeniedException', $fault: 'client', $metadata: { httpStatusCode: 400, attempts: 1 } });
    expect((acm as Error).message).toBe(
      'User: arn:aws:sts::000000000000:assumed-role/FnRole/fn is not authorized to perform: acm:RequestCertificate on resource: * because no identity-based policy allows the acm:RequestCertificate action',
    );

    const domain = {
      DomainName: 'mta-sts.inbound.example.com',
      DomainNameConfigurations: [
        { CertificateArn: 'arn:aws:acm:us-east-1:000000000000:certificate/c1', EndpointType: 'REGIONAL' as const },
      ],
    };
    const apiGateway = await runAs(principal, () => createApiGatewayV2Client(config).send(new CreateDomainNameCommand(domain))).catch(
      (e: unknown) => e,
    );
    expect(apiGateway).toBeInstanceOf(ApiGatewayAccessDenied);
    expect(apiGateway).toBeInstanceOf(ApiGatewayV2ServiceException);
    expect(apiGateway).toMatchObject({ name: 'AccessDeniedException', $fault: 'client', $metadata: { httpStatusCode: 403, attempts: 1 } });
    expect((apiGateway as Error).message).toBe(
      'User: arn:aws:sts::000000000000:assumed-role/FnRole/fn is not authorized to perform: apigateway:POST on resource: arn:aws:apigateway:us-east-1::/domainnames because no identity-based policy allows the apigateway:POST action',
    );
  } finally {
    uninstall();
  }
});

test('S3 HeadObject: a 403 without a body, as AWS answers a HEAD', async () => {
  const uninstall = installIamEnforcement({ accountId: '000000000000', region: 'us-east-1' });
  try {
    const error = await runAs(principal, () => createS3Client(config).send(new HeadObjectCommand({ Bucket: 'b', Key: 'k' }))).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ $metadata: { httpStatusCode: 403, attempts: 1 } });
  } finally {
    uninstall();
  }
});

test("allowed, 'log' mode, no principal and uninstalled: the call goes to the network", async () => {
  const enforce = installIamEnforcement({ accountId: '000000000000', region: 'us-east-1', onDecision: (e) => events.push(e) });
  const sqs = createSqsClient(config);
  const send = (QueueUrl: string) => sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'x' }));
  try {
    expect(networkError(await runAs(principal, () => send(QUEUE)).catch((e: unknown) => e))).toBe(true);
    expect(await runAs(principal, () => send(`${NOWHERE}/000000000000/other`)).catch((e: unknown) => (e as Error).name)).toBe(
      'AccessDenied',
    );
    expect(networkError(await send(`${NOWHERE}/000000000000/other`).catch((e: unknown) => e))).toBe(true);
    expect(events.map((e) => e.allowed)).toEqual([true, false]);
  } finally {
    enforce();
  }
  expect(networkError(await runAs(principal, () => send(`${NOWHERE}/000000000000/other`)).catch((e: unknown) => e))).toBe(true);
  expect(events).toHaveLength(2);

  const log = installIamEnforcement({ accountId: '000000000000', region: 'us-east-1', mode: 'log', onDecision: (e) => events.push(e) });
  try {
    const logged = createSqsClient(config);
    expect(
      networkError(
        await runAs(principal, () =>
          logged.send(new SendMessageCommand({ QueueUrl: `${NOWHERE}/000000000000/other`, MessageBody: 'x' })),
        ).catch((e: unknown) => e),
      ),
    ).toBe(true);
    expect(events[2]).toMatchObject({
      allowed: false,
      mode: 'log',
      message: expect.stringMatching(/is not authorized to perform: sqs:SendMessage/),
    });
  } finally {
    log();
  }
}, 60_000);

test('an unmapped operation is denied as AccessDenied, saying why', async () => {
  const uninstall = installIamEnforcement({ accountId: '000000000000', region: 'us-east-1' });
  try {
    const { PurgeQueueCommand } = await import('@aws-sdk/client-sqs');
    const error = await runAs(principal, () => createSqsClient(config).send(new PurgeQueueCommand({ QueueUrl: QUEUE }))).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      name: 'AccessDenied',
      message: expect.stringMatching(/SQS.PurgeQueue has no entry in the local cloud's IAM operation map/),
    });
  } finally {
    uninstall();
  }
});

test('presigning is not a call: AWS authorizes a presigned URL when it is used', async () => {
  const uninstall = installIamEnforcement({ accountId: '000000000000', region: 'us-east-1', onDecision: (e) => events.push(e) });
  try {
    const url = await runAs(principal, () =>
      getSignedUrl(createS3Client(config), new GetObjectCommand({ Bucket: 'b', Key: 'k' }), { expiresIn: 60 }),
    );
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:1\/b\/k\?/);
    expect(events).toEqual([]);
  } finally {
    uninstall();
  }
});
