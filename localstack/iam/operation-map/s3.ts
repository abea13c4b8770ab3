/**
 * The operation map's S3 entries (../operations.ts assembles the table).
 *
 * S3: https://docs.aws.amazon.com/AmazonS3/latest/userguide/using-with-s3-policy-actions.html: HeadObject
 * needs s3:GetObject, CopyObject s3:GetObject on the source and s3:PutObject on the destination,
 * ListObjectsV2 s3:ListBucket on the bucket; a VersionId makes it the *Version action.
 */
import { required, s3BucketArn, s3CopySource, s3ObjectArn } from '../operation-arns';
import { optionalKeys, type Mapper, type MappedRequest } from './mapper';

function s3Object(action: string, versionAction?: string): Mapper {
  return (input, env) => {
    const bucket = required(input, 'Bucket', `s3:${action}`);
    const chosen = input.VersionId !== undefined && versionAction ? versionAction : action;
    return [
      {
        action: `s3:${chosen}`,
        resource: s3ObjectArn(env, bucket, required(input, 'Key', `s3:${action}`)),
        context: {},
        policyHolder: s3BucketArn(env, bucket),
      },
    ];
  };
}

const s3Put: Mapper = (input, env) => {
  const [put] = s3Object('PutObject')(input, env) as [MappedRequest];
  const extra = [...(input.Tagging !== undefined ? ['s3:PutObjectTagging'] : []), ...(input.ACL !== undefined ? ['s3:PutObjectAcl'] : [])];
  return [put, ...extra.map((action) => ({ ...put, action }))];
};

const s3Copy: Mapper = (input, env) => {
  const source = s3CopySource(required(input, 'CopySource', 's3:CopyObject'));
  const getSource = s3Object('GetObject', 'GetObjectVersion')(
    { Bucket: source.bucket, Key: source.key, ...(source.versionId ? { VersionId: source.versionId } : {}) },
    env,
  );
  const putDestination = s3Put(input, env).map((request) => ({
    ...request,
    context: { ...request.context, 's3:x-amz-copy-source': input.CopySource as string },
  }));
  return [...getSource, ...putDestination];
};

const s3List: Mapper = (input, env) => {
  const bucket = s3BucketArn(env, required(input, 'Bucket', 's3:ListBucket'));
  return [
    {
      action: 's3:ListBucket',
      resource: bucket,
      policyHolder: bucket,
      ...optionalKeys(input, { 's3:prefix': 'Prefix', 's3:delimiter': 'Delimiter', 's3:max-keys': 'MaxKeys' }),
    },
  ];
};

export const S3_OPERATIONS: Readonly<Record<string, Mapper>> = {
  'S3.PutObject': s3Put,
  'S3.GetObject': s3Object('GetObject', 'GetObjectVersion'),
  'S3.HeadObject': s3Object('GetObject', 'GetObjectVersion'),
  'S3.DeleteObject': s3Object('DeleteObject', 'DeleteObjectVersion'),
  'S3.CopyObject': s3Copy,
  'S3.ListObjectsV2': s3List,
};
