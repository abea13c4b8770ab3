/**
 * Firing: due one-time schedules deliver their input to a real SQS emulator (fauxqs), through the
 * official clients on both sides.
 */
import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  GetScheduleCommand,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { atExpression } from '#localstack/emulators/scheduler';
import { atIn, createHarness, errorOf, eventually, queueName, receive, ROLE_ARN, sleep, sleepUntil, type Harness } from './harness';

let h: Harness;
let client: SchedulerClient;

beforeAll(async () => {
  h = await createHarness();
  client = (await h.start()).client;
});

afterAll(async () => {
  await h.close();
});

function newQueue(prefix = 'fire', attributes?: Record<string, string>): { queueUrl: string; queueArn: string; queueName: string } {
  return h.fx.createQueue(queueName(prefix), attributes ? { attributes } : undefined);
}

function schedule(
  name: string,
  queueArn: string,
  expression: string,
  extra: Partial<CreateScheduleCommandInput> = {},
): CreateScheduleCommandInput {
  return {
    Name: name,
    ScheduleExpression: expression,
    FlexibleTimeWindow: { Mode: 'OFF' },
    Target: { Arn: queueArn, RoleArn: ROLE_ARN, Input: JSON.stringify({ schedule: name }) },
    ...extra,
  };
}

test.concurrent('a schedule due in ~1 s delivers its Input to the queue, then (DELETE) is gone', async () => {
  const q = newQueue();
  const { expression, dueAt } = atIn(1000);
  await client.send(new CreateScheduleCommand(schedule('due-soon', q.queueArn, expression, { ActionAfterCompletion: 'DELETE' })));

  const messages = await receive(h.sqs, q.queueUrl, 5);
  expect(messages.map((m) => m.Body)).toEqual([JSON.stringify({ schedule: 'due-soon' })]);
  expect(Date.now()).toBeGreaterThanOrEqual(dueAt);
  expect(Date.now()).toBeLessThan(dueAt + 1500);

  await eventually(async () => {
    const err = await errorOf(() => client.send(new GetScheduleCommand({ Name: 'due-soon' })));
    expect(err.name).toBe('ResourceNotFoundException');
  });
});

test.concurrent('with ActionAfterCompletion NONE the schedule stays, and an at() schedule fires only once', async () => {
  const q = newQueue();
  const { expression } = atIn(500);
  await client.send(new CreateScheduleCommand(schedule('keep', q.queueArn, expression)));
  expect(await receive(h.sqs, q.queueUrl, 5)).toHaveLength(1);
  await sleep(1200);
  expect(await receive(h.sqs, q.queueUrl, 0)).toHaveLength(0);
  const got = await client.send(new GetScheduleCommand({ Name: 'keep' }));
  expect(got.State).toBe('ENABLED');
  // Updating something other than the time does not make it fire again.
  await client.send(new UpdateScheduleCommand(schedule('keep', q.queueArn, expression, { Description: 'edited' })));
  await sleep(300);
  expect(await receive(h.sqs, q.queueUrl, 0)).toHaveLength(0);
});

test.concurrent('a target without Input receives an empty JSON object', async () => {
  const q = newQueue();
  await client.send(
    new CreateScheduleCommand({
      Name: 'no-input',
      ScheduleExpression: atIn(0).expression,
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: q.queueArn, RoleArn: ROLE_ARN },
    }),
  );
  expect((await receive(h.sqs, q.queueUrl, 5)).map((m) => m.Body)).toEqual(['{}']);
});

test.concurrent('updated to a later time: does not fire at the old time, fires at the new one', async () => {
  const q = newQueue();
  const first = atIn(1000);
  await client.send(new CreateScheduleCommand(schedule('moved', q.queueArn, first.expression)));
  const later = atIn(first.dueAt - Date.now() + 2000);
  await client.send(
    new UpdateScheduleCommand(
      schedule('moved', q.queueArn, later.expression, { Target: { Arn: q.queueArn, RoleArn: ROLE_ARN, Input: 'v2' } }),
    ),
  );

  await sleepUntil(first.dueAt + 700);
  expect(await receive(h.sqs, q.queueUrl, 0)).toHaveLength(0);

  const messages = await receive(h.sqs, q.queueUrl, 5);
  expect(messages.map((m) => m.Body)).toEqual(['v2']);
  expect(Date.now()).toBeGreaterThanOrEqual(later.dueAt);
});

test.concurrent('deleted before it is due: never fires', async () => {
  const q = newQueue();
  const { expression, dueAt } = atIn(1000);
  await client.send(new CreateScheduleCommand(schedule('deleted', q.queueArn, expression)));
  await client.send(new DeleteScheduleCommand({ Name: 'deleted' }));
  await sleepUntil(dueAt + 800);
  expect(await receive(h.sqs, q.queueUrl, 0)).toHaveLength(0);
});

test.concurrent('an at() time already in the past fires promptly', async () => {
  const q = newQueue();
  const created = Date.now();
  await client.send(new CreateScheduleCommand(schedule('past', q.queueArn, 'at(2020-01-01T00:00:00)')));
  const messages = await receive(h.sqs, q.queueUrl, 5);
  expect(messages).toHaveLength(1);
  expect(Date.now() - created).toBeLessThan(1000);
});

test.concurrent('a DISABLED schedule does not fire; enabling it later (time now past) fires it', async () => {
  const q = newQueue();
  const { expression, dueAt } = atIn(300);
  await client.send(new CreateScheduleCommand(schedule('disabled', q.queueArn, expression, { State: 'DISABLED' })));
  await sleepUntil(dueAt + 600);
  expect(await receive(h.sqs, q.queueUrl, 0)).toHaveLength(0);
  await client.send(new UpdateScheduleCommand(schedule('disabled', q.queueArn, expression, { State: 'ENABLED' })));
  expect(await receive(h.sqs, q.queueUrl, 5)).toHaveLength(1);
});

test.concurrent('at() is read in ScheduleExpressionTimezone', async () => {
  const q = newQueue();
  const dueAt = Math.ceil((Date.now() + 1000) / 1000) * 1000;
  const expression = atExpression(new Date(dueAt), 'Asia/Kolkata');
  expect(expression).not.toBe(atExpression(new Date(dueAt)));
  await client.send(new CreateScheduleCommand(schedule('kolkata', q.queueArn, expression, { ScheduleExpressionTimezone: 'Asia/Kolkata' })));
  expect(await receive(h.sqs, q.queueUrl, 5)).toHaveLength(1);
  expect(Date.now()).toBeGreaterThanOrEqual(dueAt);
  expect(Date.now()).toBeLessThan(dueAt + 1500);
});

test.concurrent('FIFO targets get SqsParameters.MessageGroupId', async () => {
  const q = h.fx.createQueue(`${queueName('fifo')}.fifo`, { attributes: { FifoQueue: 'true', ContentBasedDeduplication: 'true' } });
  await client.send(
    new CreateScheduleCommand({
      Name: 'fifo',
      ScheduleExpression: atIn(0).expression,
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: q.queueArn, RoleArn: ROLE_ARN, Input: 'fifo-body', SqsParameters: { MessageGroupId: 'tenant-7' } },
    }),
  );
  const out = await h.sqs.send(
    new ReceiveMessageCommand({ QueueUrl: q.queueUrl, WaitTimeSeconds: 5, MessageSystemAttributeNames: ['MessageGroupId'] }),
  );
  expect(out.Messages?.map((m) => [m.Body, m.Attributes?.MessageGroupId])).toEqual([['fifo-body', 'tenant-7']]);
});

test.concurrent('many schedules due at the same moment each fire exactly once', async () => {
  const q = newQueue();
  const { expression } = atIn(500);
  const n = 25;
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      client.send(new CreateScheduleCommand(schedule(`burst-${i}`, q.queueArn, expression, { ActionAfterCompletion: 'DELETE' }))),
    ),
  );
  const bodies: string[] = [];
  const deadline = Date.now() + 8000;
  while (bodies.length < n && Date.now() < deadline) {
    bodies.push(...(await receive(h.sqs, q.queueUrl, 1)).map((m) => m.Body!));
  }
  await sleep(300);
  bodies.push(...(await receive(h.sqs, q.queueUrl, 0)).map((m) => m.Body!));
  expect(bodies.sort()).toEqual(Array.from({ length: n }, (_, i) => JSON.stringify({ schedule: `burst-${i}` })).sort());
});

test.concurrent('a failed send is retried: the queue created after the due time still gets the message', async () => {
  const name = queueName('late');
  const arn = `arn:aws:sqs:us-east-1:000000000000:${name}`;
  await client.send(new CreateScheduleCommand(schedule('retry', arn, atIn(0).expression, { ActionAfterCompletion: 'DELETE' })));
  await eventually(async () => expect(h.logs.some((l) => l.includes('schedule/default/retry') && l.includes('retry 1'))).toBe(true));
  const q = h.fx.createQueue(name);
  const messages = await receive(h.sqs, q.queueUrl, 5);
  expect(messages.map((m) => m.Body)).toEqual([JSON.stringify({ schedule: 'retry' })]);
  await eventually(async () =>
    expect((await errorOf(() => client.send(new GetScheduleCommand({ Name: 'retry' })))).name).toBe('ResourceNotFoundException'),
  );
});

test.concurrent('retries exhausted: the input goes to the DeadLetterConfig queue and the schedule completes', async () => {
  const dlq = newQueue('dlq');
  const missing = `arn:aws:sqs:us-east-1:000000000000:${queueName('missing')}`;
  await client.send(
    new CreateScheduleCommand({
      Name: 'to-dlq',
      ScheduleExpression: atIn(0).expression,
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: missing,
        RoleArn: ROLE_ARN,
        Input: 'lost',
        RetryPolicy: { MaximumRetryAttempts: 0 },
        DeadLetterConfig: { Arn: dlq.queueArn },
      },
    }),
  );
  const messages = await receive(h.sqs, dlq.queueUrl, 5);
  expect(messages).toHaveLength(1);
  expect(messages[0]!.Body).toBe('lost');
  expect(messages[0]!.MessageAttributes?.TARGET_ARN?.StringValue).toBe(missing);
  expect(messages[0]!.MessageAttributes?.SCHEDULE_ARN?.StringValue).toBe(
    'arn:aws:scheduler:us-east-1:000000000000:schedule/default/to-dlq',
  );
  expect(messages[0]!.MessageAttributes?.RETRY_ATTEMPTS?.StringValue).toBe('0');
  await eventually(async () =>
    expect((await errorOf(() => client.send(new GetScheduleCommand({ Name: 'to-dlq' })))).name).toBe('ResourceNotFoundException'),
  );
});
