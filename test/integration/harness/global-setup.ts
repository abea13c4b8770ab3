/** Starts one in-memory local cloud on ephemeral ports for the whole integration run. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal, type DynamoDbLocal } from '#localstack/cloud/dynamodb/dynamodb';
import { OWN_STACKS_DYNAMODB_ENV, spawnStack, type SpawnedStack } from './spawn-stack';
import { createTestCa } from '../../support/https-receiver';
import { validatorsModule } from '../../support/contract-validators';

declare global {
  // eslint-disable-next-line no-var
  var __LOCAL_CLOUD__: SpawnedStack | undefined;
  // eslint-disable-next-line no-var
  var __OWN_STACKS_DYNAMODB__: DynamoDbLocal | undefined;
}

export default async function globalSetup(): Promise<void> {
  // Dashboard passwords hashed with scrypt's small parameters in every stack of the run, the test workers and
  // the CLIs they start (all inherit this process's environment): at the real ones (ln=15,r=8,p=3) each hash
  // or sign-in took 150-300 ms of CPU, 38 s of the whole suite's. PASSWORD_HASH_COST, shared/config/config.ts;
  // the real parameters are proven by test/unit/dashboard/password-hash.test.ts and dashboard-auth's admin CLI.
  process.env.PASSWORD_HASH_COST ??= 'ln=10,r=8,p=1';
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-it-'));
  // A CA the stack trusts, so tests can run HTTPS webhook receivers on loopback.
  // The server certificate also covers a made-up name tests map in the DNS emulator (DNS rebinding).
  const ca = await createTestCa(dataDir, { extraDnsNames: ['rebind.webhook-delivery.test'] });
  const starting = spawnStack({
    dataDir,
    inMemory: true,
    ownDynamoDb: true,
    env: {
      // The tasks every 4 s (the template's local period is 2 s), the reconciler every 15 s: its pass queries the
      // due index's 32 shards, which every 4 s was two thirds of an idle stack's DynamoDB calls (8 queries a
      // second) for the whole run. A test waiting for a recovery asks for the passes it needs (POST
      // /_local/tasks/reconciler/run: harness/tasks.ts); a test waiting for the domain-health task's steps (a hosted
      // MTA-STS policy, a link domain) asks for its passes too (waitWithTask: 52 s -> 11 s for mta-sts-hosting).
      LOCAL_TASK_PERIOD_MS: '4000,reconciler=15000',
      // Short visibility timeouts: redelivery and DLQ redrive are observable in seconds. One second: a failed
      // record comes back a second later (a running batch stays invisible for its function's timeout:
      // localstack/cloud/messaging/sqs-poller.ts), so a DLQ test's five receives take 5 s, not 10.
      LOCAL_QUEUE_VISIBILITY_SECONDS: '1',
      WEBHOOK_CA_FILE: ca.caFile,
      // Tests only: the retry schedule shortened from 0s, 5s, 30s, 2m, 2m (same number of retries).
      WEBHOOK_RETRY_DELAYS: '0,1,1,1,1',
      // Tests only: the SES emulator refuses to register these domains (the verify failure path).
      LOCAL_SES_REFUSE_IDENTITIES: '\\.refused-by-ses\\.test$',
      // Tests only: SES verifies these domains 4 s after their registration, even with their records in DNS.
      LOCAL_SES_VERIFICATION_DELAY_MS: '4000',
      LOCAL_SES_VERIFICATION_DELAY_IDENTITIES: '\\.ses-verifies-later\\.test$',
      // Tests only: recipients at these domains hard-bounce or complain as real addresses (SES's suppression list records them).
      LOCAL_SES_BOUNCE_RECIPIENTS: '@hard-bounces\\.test$',
      LOCAL_SES_COMPLAINT_RECIPIENTS: '@complains\\.test$',
      // Tests only: the reputation brake's deployment rule off (a deployment minimum no stack reaches): the many
      // deliberate bounces and complaints of unrelated tests would otherwise pause their accounts. The brake is
      // tested on a stack of its own (reputation-guard.test.ts); the review-rate rule stays as it is.
      REPUTATION_DEPLOYMENT_MIN_SENT: '1000000000',
      // The dashboard's sign-in with OpenID Connect through the local OpenID provider (docs/local-cloud/oidc.md).
      LOCAL_OIDC: '1',
      OIDC_ISSUER: '',
    },
  });
  // The contract check's validators, compiled once for every file (../../support/contract-validators.ts)
  // while the stack starts.
  validatorsModule();
  // One DynamoDB Local for the in-memory stacks the test files start of their own (./spawn-stack.ts), each
  // under a stack name of its own: about 2.5 s of CPU less for each of them than a JVM of its own. A database for
  // each (no -sharedDb; each stack signs with a key of its own): in one, every request of a stack walked the
  // stream records of all the stacks before it (localstack/cloud/dynamodb/dynamodb-partition-proxy.ts).
  const ownStacksDynamo = startDynamoDbLocal({ sharedDb: false });
  const [stack, dynamo] = await Promise.all([starting, ownStacksDynamo]);
  globalThis.__OWN_STACKS_DYNAMODB__ = dynamo;
  process.env[OWN_STACKS_DYNAMODB_ENV] = dynamo.endpoint;
  globalThis.__LOCAL_CLOUD__ = stack;
  // Test workers start after this and inherit these.
  process.env.TEST_STACK_DATA_DIR = dataDir;
  process.env.TEST_API_URL = stack.apiUrl;
  process.env.TEST_WEBHOOK_CERT_FILE = ca.certFile;
  process.env.TEST_WEBHOOK_KEY_FILE = ca.keyFile;
}
