/**
 * The template's AWS::KMS::Key and AWS::KMS::Alias on the KMS emulator (docs/local-cloud/kms.md), as
 * CloudFormation creates them (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-kms-key.html):
 * CreateKey with the key policy and description, EnableKeyRotation when asked, CreateAlias. KMS picks a
 * key's id, so the id is recorded in the data folder's state (./stack-state.ts); on a kept folder the
 * recorded key is kept and its policy put again (a changed policy is an update, not a new key: the sealed
 * secrets stay readable).
 */
import {
  CreateAliasCommand,
  CreateKeyCommand,
  DescribeKeyCommand,
  EnableKeyRotationCommand,
  PutKeyPolicyCommand,
  type KMSClient,
} from '@aws-sdk/client-kms';
import type { DeployedStack } from './deployed-stack';
import { ignoreExists } from './ignore-exists';

interface KeyProperties {
  KeyPolicy: unknown;
  Description?: string;
  EnableKeyRotation?: boolean;
  KeySpec?: string;
  KeyUsage?: string;
  Enabled?: boolean;
  Tags?: { Key: string; Value: string }[];
  PendingWindowInDays?: number;
}

async function existingKey(kms: KMSClient, keyId: string | undefined): Promise<string | undefined> {
  if (!keyId) return undefined;
  try {
    return (await kms.send(new DescribeKeyCommand({ KeyId: keyId }))).KeyMetadata?.KeyId;
  } catch (error) {
    if (error instanceof Error && error.name === 'NotFoundException') return undefined;
    throw error;
  }
}

/** Creates (or keeps) each key and alias; returns the key id by logical id, for the data folder's state. */
export async function deployKeys(
  stack: DeployedStack,
  kms: KMSClient,
  recordedKeyIds: Record<string, string>,
): Promise<Record<string, string>> {
  const keyIds: Record<string, string> = {};
  for (const id of stack.ofType('AWS::KMS::Key')) {
    const p = stack.properties<KeyProperties>(id);
    if ((p.KeySpec ?? 'SYMMETRIC_DEFAULT') !== 'SYMMETRIC_DEFAULT' || (p.KeyUsage ?? 'ENCRYPT_DECRYPT') !== 'ENCRYPT_DECRYPT')
      throw new Error(`${id}: the local KMS has symmetric encryption keys only`);
    const policy = JSON.stringify(p.KeyPolicy);
    let keyId = await existingKey(kms, recordedKeyIds[id]);
    if (keyId) await kms.send(new PutKeyPolicyCommand({ KeyId: keyId, PolicyName: 'default', Policy: policy }));
    else
      keyId = (
        await kms.send(
          new CreateKeyCommand({
            Policy: policy,
            Description: p.Description,
            Tags: p.Tags?.map((t) => ({ TagKey: t.Key, TagValue: t.Value })),
          }),
        )
      ).KeyMetadata!.KeyId!;
    if (p.EnableKeyRotation) await kms.send(new EnableKeyRotationCommand({ KeyId: keyId }));
    const arn = `arn:aws:kms:${stack.identity.region}:${stack.identity.accountId}:key/${keyId}`;
    stack.learn(id, { ref: keyId, attributes: { Arn: arn, KeyId: keyId } });
    keyIds[id] = keyId;
  }
  for (const id of stack.ofType('AWS::KMS::Alias')) {
    const { AliasName, TargetKeyId } = stack.properties<{ AliasName: string; TargetKeyId: string }>(id);
    await kms.send(new CreateAliasCommand({ AliasName, TargetKeyId })).catch(ignoreExists);
  }
  return keyIds;
}
