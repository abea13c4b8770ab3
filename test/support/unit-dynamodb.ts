/**
 * A real DynamoDB Local for a unit test that needs one (streams, transactions with tokens). In a whole run it is the
 * global setup's DynamoDB Local of the files' own stacks (test/integration/harness/global-setup.ts), saving the test
 * a JVM start (2.1-2.7 s of CPU, docs/local-cloud/dynamodb.md): that one keeps a database for each access key and region (no `-sharedDb`), so
 * under an access key of the test's own it sees only its own tables and streams. Without it (`npm run test:fast`, the
 * file alone) the test starts a DynamoDB Local of its own, stopped with `stop()`.
 */
import { randomBytes } from 'node:crypto';
import { startDynamoDbLocal } from '#localstack/cloud/dynamodb/dynamodb';

/** Where the global setup names its DynamoDB Local for the run's workers (set before any of them starts). */
export const OWN_STACKS_DYNAMODB_ENV = 'TEST_OWN_STACKS_DYNAMODB_ENDPOINT';

export interface UnitDynamoDb {
  endpoint: string;
  /** The test's own: with the run's DynamoDB Local, a database of its own. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Stops a DynamoDB Local the test started; leaves the run's running (its database goes with it). */
  stop(): Promise<void>;
}

export async function unitDynamoDb(): Promise<UnitDynamoDb> {
  const shared = process.env[OWN_STACKS_DYNAMODB_ENV];
  if (shared) {
    return {
      endpoint: shared,
      credentials: { accessKeyId: `unit${randomBytes(6).toString('hex')}`, secretAccessKey: 'local' },
      stop: async () => {},
    };
  }
  const own = await startDynamoDbLocal({});
  return { endpoint: own.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, stop: () => own.stop() };
}
