/**
 * The floors' email items: copies of an item the API wrote, read back while still `queued` (before the
 * send worker claimed it), each with a new id, recipient, subject and time. The table's stream hands them
 * to the send queue and the workers deliver them exactly as the API's.
 */
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Outcome } from '../../lib/load';

/**
 * `apiSend(n)` sends one email through the door the copies stand for (the API; the relay for bench:smtp's
 * floor) and answers its id.
 */
export async function emailCopier(context: {
  tableName: string;
  doc: DynamoDBDocumentClient;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  keys: any;
  newId(prefix: string, time: number): string;
  apiSend(n: number): Promise<Outcome & { id?: string }>;
  recipient(n: number): string;
}): Promise<(n: number, withDeferredUsage: boolean) => Record<string, unknown>> {
  const { tableName: TableName, doc, keys } = context;
  // The template: an email item as the API writes it, read before the pipeline touched it.
  let template: Record<string, unknown> | undefined;
  for (let attempt = 0; attempt < 5 && !template; attempt++) {
    const sent = await context.apiSend(-1 - attempt);
    if (!sent.id) throw new Error(`template send failed: ${sent.label}`);
    const { Item } = await doc.send(new GetCommand({ TableName, Key: keys.email(sent.id), ConsistentRead: true }));
    if (Item && Item.status === 'queued' && Item.send_lease_until === undefined) template = Item;
  }
  if (!template) throw new Error('could not read an email item in its accepted state for the floors');
  return (n, withDeferredUsage) => {
    const now = new Date();
    const id = context.newId('msg', now.getTime());
    // The index keys that name the email (listings, the due index's sort key) name the copy.
    const renamed = Object.fromEntries(
      Object.entries(template)
        .filter(([name, value]) => /^GSI\dSK$/.test(name) && typeof value === 'string' && value.includes(String(template.id)))
        .map(([name, value]) => [name, (value as string).replace(String(template.id), id)]),
    );
    const item: Record<string, unknown> = {
      ...template,
      ...renamed,
      ...keys.email(id),
      id,
      to: [context.recipient(n)],
      subject: `bench ${n}`,
      created_at: now.toISOString(),
    };
    if (!withDeferredUsage) delete item.usage_deferred;
    return item;
  };
}
