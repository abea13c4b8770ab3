/**
 * fauxqs (SQS, SNS, S3) started in-process. It is ESM-only with an import-only exports map, so it is
 * loaded with a dynamic import from this CommonJS project.
 */
import type { FauxqsServer } from 'fauxqs';

export type { FauxqsServer };

export async function startFauxqsServer(options: { port: number; host: string }): Promise<FauxqsServer> {
  const { startFauxqs } = await import('fauxqs');
  // Queue URLs use the `sqs.<region>.<host>` form; SDK clients use the endpoint, not the URL's host.
  return startFauxqs({ port: options.port, host: options.host, logger: false });
}
