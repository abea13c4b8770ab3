/**
 * Key management against the real emulator with the official SDK: keys, key policies, aliases wherever
 * KMS accepts them, rotation status, the in-process lookups the IAM evaluator uses, and errors as the SDK
 * names them.
 */
import {
  CreateAliasCommand,
  CreateKeyCommand,
  DeleteAliasCommand,
  DescribeKeyCommand,
  DisableKeyCommand,
  EnableKeyRotationCommand,
  GetKeyPolicyCommand,
  GetKeyRotationStatusCommand,
  ListAliasesCommand,
  PutKeyPolicyCommand,
} from '@aws-sdk/client-kms';
import { accountId, createKey, errorOf, region, startKms, type Running } from './harness';

let running: Running;
beforeAll(async () => {
  running = await startKms();
});
afterAll(() => running.stop());

const policyFor = (principal: string, action = 'kms:*') =>
  JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: principal }, Action: action, Resource: '*' }] });

test('CreateKey: a symmetric key with the metadata DescribeKey returns; the default key policy trusts the account', async () => {
  const { kms } = running;
  const { KeyMetadata } = await kms.send(
    new CreateKeyCommand({
      Description: 'secrets',
      KeyUsage: 'ENCRYPT_DECRYPT',
      KeySpec: 'SYMMETRIC_DEFAULT',
      Tags: [{ TagKey: 'project', TagValue: 'x' }],
    }),
  );
  expect(KeyMetadata).toMatchObject({
    AWSAccountId: accountId,
    Description: 'secrets',
    Enabled: true,
    KeyState: 'Enabled',
    KeyUsage: 'ENCRYPT_DECRYPT',
    KeySpec: 'SYMMETRIC_DEFAULT',
    KeyManager: 'CUSTOMER',
    Origin: 'AWS_KMS',
    EncryptionAlgorithms: ['SYMMETRIC_DEFAULT'],
  });
  expect(KeyMetadata!.KeyId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(KeyMetadata!.Arn).toBe(`arn:aws:kms:${region}:${accountId}:key/${KeyMetadata!.KeyId}`);
  expect(KeyMetadata!.CreationDate).toBeInstanceOf(Date);
  expect(Math.abs(KeyMetadata!.CreationDate!.getTime() - Date.now())).toBeLessThan(60_000);
  const described = await kms.send(new DescribeKeyCommand({ KeyId: KeyMetadata!.KeyId }));
  expect(described.KeyMetadata).toEqual(KeyMetadata);
  const { Policy, PolicyName } = await kms.send(new GetKeyPolicyCommand({ KeyId: KeyMetadata!.Arn }));
  expect(PolicyName).toBe('default');
  expect(JSON.parse(Policy!).Statement).toEqual([
    {
      Sid: 'Enable IAM User Permissions',
      Effect: 'Allow',
      Principal: { AWS: `arn:aws:iam::${accountId}:root` },
      Action: 'kms:*',
      Resource: '*',
    },
  ]);
});

test('CreateKey refuses what the emulator does not model: another spec or usage, multi-Region', async () => {
  const { kms } = running;
  for (const input of [
    { KeySpec: 'RSA_2048' as const, KeyUsage: 'SIGN_VERIFY' as const },
    { KeyUsage: 'GENERATE_VERIFY_MAC' as const },
    { MultiRegion: true },
  ]) {
    expect((await errorOf(() => kms.send(new CreateKeyCommand(input)))).name).toBe('UnsupportedOperationException');
  }
  expect((await errorOf(() => kms.send(new CreateKeyCommand({ KeySpec: 'NOPE' as never })))).name).toBe('ValidationException');
});

test('the key is found by key id, key ARN, alias name and alias ARN wherever KMS takes aliases; the emulator resolves them in process', async () => {
  const { kms, emulator } = running;
  const { keyId, arn } = await createKey(kms, 'alias/api-found');
  const aliasArn = `arn:aws:kms:${region}:${accountId}:alias/api-found`;
  for (const KeyId of [keyId, arn, 'alias/api-found', aliasArn]) {
    expect((await kms.send(new DescribeKeyCommand({ KeyId }))).KeyMetadata!.Arn).toBe(arn);
    expect(emulator.resolveKeyArn(KeyId)).toBe(arn);
  }
  expect(emulator.resolveKeyArn('alias/none')).toBeUndefined();
  expect(emulator.resolveKeyArn(`arn:aws:kms:${region}:999999999999:key/${keyId}`)).toBeUndefined();
  // Management operations take only the key id or ARN.
  expect((await errorOf(() => kms.send(new GetKeyPolicyCommand({ KeyId: 'alias/api-found' })))).name).toBe('NotFoundException');
  expect(
    (await errorOf(() => kms.send(new CreateAliasCommand({ AliasName: 'alias/api-found-2', TargetKeyId: 'alias/api-found' })))).name,
  ).toBe('NotFoundException');
});

test('not found: the message names the key or alias ARN as KMS does', async () => {
  const { kms } = running;
  const missingKey = await errorOf(() => kms.send(new DescribeKeyCommand({ KeyId: '11111111-2222-4333-8444-555555555555' })));
  expect(missingKey.name).toBe('NotFoundException');
  expect(missingKey.message).toBe(`Key 'arn:aws:kms:${region}:${accountId}:key/11111111-2222-4333-8444-555555555555' does not exist`);
  const missingAlias = await errorOf(() => kms.send(new DescribeKeyCommand({ KeyId: 'alias/missing' })));
  expect(missingAlias.message).toBe(`Alias arn:aws:kms:${region}:${accountId}:alias/missing is not found.`);
  expect(missingAlias.$metadata?.httpStatusCode).toBe(400);
});

test('CreateAlias: the alias rules of KMS; ListAliases filters by key and pages; DeleteAlias', async () => {
  const { kms } = running;
  const a = await createKey(kms, 'alias/list-a1');
  await kms.send(new CreateAliasCommand({ AliasName: 'alias/list-a2', TargetKeyId: a.arn }));
  const b = await createKey(kms, 'alias/list-b1');
  expect((await errorOf(() => kms.send(new CreateAliasCommand({ AliasName: 'alias/list-a1', TargetKeyId: b.keyId })))).name).toBe(
    'AlreadyExistsException',
  );
  expect((await errorOf(() => kms.send(new CreateAliasCommand({ AliasName: 'no-prefix', TargetKeyId: b.keyId })))).name).toBe(
    'ValidationException',
  );
  expect((await errorOf(() => kms.send(new CreateAliasCommand({ AliasName: 'alias/has space', TargetKeyId: b.keyId })))).name).toBe(
    'ValidationException',
  );
  expect((await errorOf(() => kms.send(new CreateAliasCommand({ AliasName: 'alias/aws/s3', TargetKeyId: b.keyId })))).name).toBe(
    'InvalidAliasNameException',
  );

  const ofA = await kms.send(new ListAliasesCommand({ KeyId: a.keyId }));
  expect(ofA.Aliases!.map((x) => x.AliasName)).toEqual(['alias/list-a1', 'alias/list-a2']);
  expect(ofA.Aliases![0]).toMatchObject({ AliasArn: `arn:aws:kms:${region}:${accountId}:alias/list-a1`, TargetKeyId: a.keyId });
  expect(ofA.Truncated).toBe(false);

  const names: string[] = [];
  let Marker: string | undefined;
  do {
    const page = await kms.send(new ListAliasesCommand({ Limit: 1, Marker }));
    expect(page.Aliases!.length).toBeLessThanOrEqual(1);
    names.push(...page.Aliases!.map((x) => x.AliasName!));
    Marker = page.Truncated ? page.NextMarker : undefined;
  } while (Marker);
  expect(names).toEqual(expect.arrayContaining(['alias/list-a1', 'alias/list-a2', 'alias/list-b1']));
  expect(new Set(names).size).toBe(names.length);
  expect((await errorOf(() => kms.send(new ListAliasesCommand({ Marker: 'bogus' })))).name).toBe('InvalidMarkerException');
  expect((await errorOf(() => kms.send(new ListAliasesCommand({ Limit: 101 })))).name).toBe('ValidationException');

  await kms.send(new DeleteAliasCommand({ AliasName: 'alias/list-a2' }));
  expect((await kms.send(new ListAliasesCommand({ KeyId: a.arn }))).Aliases!.map((x) => x.AliasName)).toEqual(['alias/list-a1']);
  expect((await errorOf(() => kms.send(new DeleteAliasCommand({ AliasName: 'alias/list-a2' })))).name).toBe('NotFoundException');
});

test('PutKeyPolicy stores the document as given (GetKeyPolicy and keyPolicyOf return it); malformed or oversized ones are refused', async () => {
  const { kms, emulator } = running;
  const { keyId, arn } = await createKey(kms);
  const policy = policyFor('arn:aws:iam::123456789012:role/app', 'kms:Decrypt');
  await kms.send(new PutKeyPolicyCommand({ KeyId: arn, Policy: policy }));
  expect((await kms.send(new GetKeyPolicyCommand({ KeyId: keyId }))).Policy).toBe(policy);
  expect(emulator.keyPolicyOf(arn)).toBe(policy);
  expect(emulator.keyPolicyOf(`arn:aws:kms:${region}:${accountId}:key/00000000-0000-4000-8000-000000000000`)).toBeUndefined();

  const created = await kms.send(new CreateKeyCommand({ Policy: policy }));
  expect(emulator.keyPolicyOf(created.KeyMetadata!.Arn!)).toBe(policy);

  for (const bad of ['not json', '{}', JSON.stringify({ Statement: [{ Effect: 'Allow', Action: 'kms:*', Resource: '*' }] })]) {
    expect((await errorOf(() => kms.send(new PutKeyPolicyCommand({ KeyId: arn, Policy: bad })))).name).toBe(
      'MalformedPolicyDocumentException',
    );
  }
  const padded = JSON.stringify({
    Version: '2012-10-17',
    Id: 'x'.repeat(32768),
    Statement: [{ Effect: 'Allow', Principal: '*', Action: 'kms:*', Resource: '*' }],
  });
  expect((await errorOf(() => kms.send(new PutKeyPolicyCommand({ KeyId: arn, Policy: padded })))).name).toBe('LimitExceededException');
  expect((await errorOf(() => kms.send(new PutKeyPolicyCommand({ KeyId: arn, Policy: policy.replace('app', 'ápp\u0101') })))).name).toBe(
    'ValidationException',
  );
  expect((await errorOf(() => kms.send(new GetKeyPolicyCommand({ KeyId: arn, PolicyName: 'other' })))).name).toBe('NotFoundException');
  expect(emulator.keyPolicyOf(arn)).toBe(policy);
});

test('rotation: off by default; EnableKeyRotation records the period (365 by default) and the next date; disabled key refused', async () => {
  const { kms } = running;
  const { arn } = await createKey(kms);
  expect(await kms.send(new GetKeyRotationStatusCommand({ KeyId: arn }))).toMatchObject({ KeyRotationEnabled: false });
  await kms.send(new EnableKeyRotationCommand({ KeyId: arn }));
  const status = await kms.send(new GetKeyRotationStatusCommand({ KeyId: arn }));
  expect(status).toMatchObject({ KeyRotationEnabled: true, RotationPeriodInDays: 365, KeyId: arn });
  expect(Math.abs(status.NextRotationDate!.getTime() - (Date.now() + 365 * 86_400_000))).toBeLessThan(60_000);
  await kms.send(new EnableKeyRotationCommand({ KeyId: arn, RotationPeriodInDays: 90 }));
  expect((await kms.send(new GetKeyRotationStatusCommand({ KeyId: arn }))).RotationPeriodInDays).toBe(90);
  expect((await errorOf(() => kms.send(new EnableKeyRotationCommand({ KeyId: arn, RotationPeriodInDays: 89 })))).name).toBe(
    'ValidationException',
  );
  await kms.send(new DisableKeyCommand({ KeyId: arn }));
  expect((await errorOf(() => kms.send(new EnableKeyRotationCommand({ KeyId: arn })))).name).toBe('DisabledException');
});

test('the wire: an unknown target is UnknownOperationException, a body that is not JSON a SerializationException, both {"__type","message"}', async () => {
  const { emulator } = running;
  const post = (target: string, body: string) =>
    fetch(emulator.url, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target }, body });
  const unknown = await post('TrentService.Sign', '{}');
  expect(unknown.status).toBe(400);
  expect(await unknown.json()).toEqual({ __type: 'UnknownOperationException', message: expect.any(String) });
  const notJson = await post('TrentService.Encrypt', '{');
  expect(((await notJson.json()) as { __type: string }).__type).toBe('SerializationException');
  const wrongType = await post(
    'TrentService.Encrypt',
    JSON.stringify({ KeyId: 'alias/x', Plaintext: 'AA==', EncryptionContext: { a: 1 } }),
  );
  expect(((await wrongType.json()) as { __type: string }).__type).toBe('SerializationException');
  const missing = await post('TrentService.Encrypt', JSON.stringify({ Plaintext: 'AA==' }));
  expect(await missing.json()).toEqual({
    __type: 'ValidationException',
    message: "1 validation error detected: Value null at 'keyId' failed to satisfy constraint: Member must not be null",
  });
  expect(missing.headers.get('content-type')).toBe('application/x-amz-json-1.1');
});
