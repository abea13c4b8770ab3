/** Amazon SQS queue ARNs: `arn:aws:sqs:<region>:<account>:<queueName>`. */

export interface SqsQueueRef {
  region: string;
  accountId: string;
  queueName: string;
  fifo: boolean;
}

const SQS_ARN = /^arn:aws[a-z-]*:sqs:([a-z0-9-]+):(\d{12}):([a-zA-Z0-9_-]{1,80}(?:\.fifo)?)$/;

export function parseSqsArn(arn: string): SqsQueueRef | undefined {
  const m = SQS_ARN.exec(arn);
  if (!m) return undefined;
  const queueName = m[3] as string;
  return { region: m[1] as string, accountId: m[2] as string, queueName, fifo: queueName.endsWith('.fifo') };
}
