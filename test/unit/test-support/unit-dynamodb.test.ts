/**
 * test/support/unit-dynamodb.ts: with the run's own-stacks DynamoDB Local named (a whole `npm test`), a unit test
 * gets that one under an access key no other caller has (a database of its own there) and starts no JVM.
 */
import { OWN_STACKS_DYNAMODB_ENV, unitDynamoDb } from '../../support/unit-dynamodb';

it("uses the run's DynamoDB Local under an access key of each caller's own, and leaves it running", async () => {
  const before = process.env[OWN_STACKS_DYNAMODB_ENV];
  // Nothing listens here: the endpoint is only handed on (a JVM started instead would name its own port).
  process.env[OWN_STACKS_DYNAMODB_ENV] = 'http://127.0.0.1:9';
  try {
    const [one, two] = await Promise.all([unitDynamoDb(), unitDynamoDb()]);
    expect(one.endpoint).toBe('http://127.0.0.1:9');
    expect(two.endpoint).toBe('http://127.0.0.1:9');
    expect(one.credentials.accessKeyId).not.toBe(two.credentials.accessKeyId);
    expect(one.credentials.accessKeyId).not.toBe('local');
    await one.stop();
  } finally {
    if (before === undefined) delete process.env[OWN_STACKS_DYNAMODB_ENV];
    else process.env[OWN_STACKS_DYNAMODB_ENV] = before;
  }
});
