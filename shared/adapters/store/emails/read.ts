/** Reading one email by id (strongly consistent): what every later step starts from. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { isExpired } from '#shared/domain/accounts/retention';
import { serviceClock } from '../../clock';
import { keys } from '../keys';
import type { Table } from '../table';
import { toStoredEmail, type StoredEmail } from './stored-email';

export class EmailReads {
  constructor(private readonly table: Table) {}

  async get(emailId: string): Promise<StoredEmail | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.email(emailId), ConsistentRead: true }),
    );
    // Past its retention: absent, as it soon will be (DynamoDB's TTL deletes within days).
    return result.Item && !isExpired(result.Item, serviceClock.now()) ? toStoredEmail(result.Item) : null;
  }
}
