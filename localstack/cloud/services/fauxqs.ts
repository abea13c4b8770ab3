/**
 * fauxqs (SQS, SNS, S3) started in-process. It is ESM-only with an import-only exports map, so it is
 * loaded with a dynamic import from this CommonJS project. Its S3 refuses presigned URLs as S3 does
 * (expired, over 7 days, tampered: ../s3/s3-request-gate.ts, docs/local-cloud/s3.md).
 */
import type { FauxqsServer } from 'fauxqs';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../constants';
import { installFauxqsHooks } from '../messaging/messaging-hooks';
import { withS3RequestGate } from '../s3/s3-request-gate';

export type { FauxqsServer };

export async function startFauxqsServer(options: { port: number; host: string }): Promise<FauxqsServer> {
  const { startFauxqs } = await import('fauxqs');
  // Its stores' hooks before it creates anything: the journal and the lifecycle sweep find them (../messaging/messaging-hooks.ts).
  await installFauxqsHooks();
  const secretOf = (accessKeyId: string) => (accessKeyId === LOCAL_CREDENTIALS.accessKeyId ? LOCAL_CREDENTIALS.secretAccessKey : undefined);
  // Queue URLs use the `sqs.<region>.<host>` form; SDK clients use the endpoint, not the URL's host.
  return withS3RequestGate({ region: LOCAL_REGION, secretOf }, () =>
    startFauxqs({ port: options.port, host: options.host, logger: false }),
  );
}
