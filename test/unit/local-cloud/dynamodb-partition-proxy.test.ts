/**
 * A stack's partition proxy to a shared DynamoDB Local (localstack/cloud/dynamodb/dynamodb-partition-proxy.ts): the
 * access key it signs with, and the Authorization header it forwards. A whole stack through it, its database
 * apart from another key's, is test/integration/local-cloud.test.ts ("sharing a DynamoDB Local").
 */
import { partitionKeyOf, withAccessKey } from '#localstack/cloud/dynamodb/dynamodb-partition-proxy';

it("a stack's access key is its name's letters and digits", () => {
  expect(partitionKeyOf('Mailservice-1a2b3c4d')).toBe('Mailservice1a2b3c4d');
  expect(partitionKeyOf('Mailservice')).toBe('Mailservice');
});

it("only the Credential's access key changes; a request without one is forwarded as it came", () => {
  const header =
    'AWS4-HMAC-SHA256 Credential=local/20261129/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc123';
  expect(withAccessKey(header, 'Mailservice1a2b')).toBe(
    'AWS4-HMAC-SHA256 Credential=Mailservice1a2b/20261129/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc123',
  );
  expect(withAccessKey(undefined, 'Mailservice1a2b')).toBeUndefined();
  expect(withAccessKey('Bearer x', 'Mailservice1a2b')).toBe('Bearer x');
});
