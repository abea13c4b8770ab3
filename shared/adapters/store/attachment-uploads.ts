/**
 * Attachment uploads repository: one item per upload, PK UPLOAD#<acc>#<att> / SK UPLOAD, with the
 * table's TTL attribute at `expires_at` (24 h). The account is part of the key, so looking up another
 * account's id finds nothing (no separate ownership check to forget). No listing: uploads are only
 * ever read by id.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AttachmentUpload, AttachmentUploadStatus } from '../../domain/emails/attachment-upload';
import { keys } from './keys';
import { updateIfCondition, withoutKeys, type Table } from './table';

function toUpload(item: Record<string, unknown>): AttachmentUpload {
  const { type, ...rest } = withoutKeys(item);
  return { declared_size: null, size: null, ...rest } as AttachmentUpload;
}

export class AttachmentUploadRepository {
  constructor(private readonly table: Table) {}

  async create(upload: AttachmentUpload): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...keys.attachmentUpload(upload.account_id, upload.id),
          type: 'attachment_upload',
          ...upload,
          ttl: Math.floor(Date.parse(upload.expires_at) / 1000),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  /** The upload of that account (strongly consistent), or null. Expired records are returned: callers check `expires_at`. */
  async get(accountId: string, attachmentId: string): Promise<AttachmentUpload | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.attachmentUpload(accountId, attachmentId), ConsistentRead: true }),
    );
    return result.Item ? toUpload(result.Item) : null;
  }

  /** Records what the bucket holds now (status and size); null when the record is gone. */
  async recordObject(
    accountId: string,
    attachmentId: string,
    status: AttachmentUploadStatus,
    size: number | null,
  ): Promise<AttachmentUpload | null> {
    const item = await updateIfCondition(this.table, {
      Key: keys.attachmentUpload(accountId, attachmentId),
      UpdateExpression: 'SET #status = :status, #size = :size',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#status': 'status', '#size': 'size' },
      ExpressionAttributeValues: { ':status': status, ':size': size },
    });
    return item ? toUpload(item) : null;
  }
}
