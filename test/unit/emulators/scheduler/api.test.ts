/**
 * Scheduler emulator API through the official @aws-sdk/client-scheduler client: wire shapes, errors,
 * listing with filters and pagination, schedule groups and their tags.
 */
import {
  CreateScheduleCommand,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  DeleteScheduleGroupCommand,
  GetScheduleCommand,
  GetScheduleGroupCommand,
  ListScheduleGroupsCommand,
  ListSchedulesCommand,
  ListTagsForResourceCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { createHarness, errorOf, queueName, ROLE_ARN, type Harness } from './harness';

let h: Harness;
let client: SchedulerClient;
let queueArn: string;
let emulatorUrl: string;

beforeAll(async () => {
  h = await createHarness();
  const started = await h.start();
  client = started.client;
  emulatorUrl = started.emulator.url;
  queueArn = h.fx.createQueue(queueName('api')).queueArn;
});

afterAll(async () => {
  await h.close();
});

/** A far-future one-time schedule (never fires during the tests). */
function input(name: string, extra: Partial<CreateScheduleCommandInput> = {}): CreateScheduleCommandInput {
  return {
    Name: name,
    ScheduleExpression: 'at(2099-06-01T12:00:00)',
    FlexibleTimeWindow: { Mode: 'OFF' },
    Target: { Arn: queueArn, RoleArn: ROLE_ARN, Input: JSON.stringify({ name }) },
    ...extra,
  };
}

describe('schedules', () => {
  test('create + get round trip returns the fields as the SDK deserializes them', async () => {
    const before = Date.now();
    const created = await client.send(
      new CreateScheduleCommand(
        input('round-trip', {
          Description: 'hello',
          ScheduleExpressionTimezone: 'Europe/Paris',
          ActionAfterCompletion: 'DELETE',
          StartDate: new Date('2099-01-01T00:00:00Z'),
          Target: { Arn: queueArn, RoleArn: ROLE_ARN, Input: '{"a":1}', RetryPolicy: { MaximumRetryAttempts: 3 } },
        }),
      ),
    );
    expect(created.ScheduleArn).toBe('arn:aws:scheduler:us-east-1:000000000000:schedule/default/round-trip');

    const got = await client.send(new GetScheduleCommand({ Name: 'round-trip' }));
    expect(got).toMatchObject({
      Arn: created.ScheduleArn,
      Name: 'round-trip',
      GroupName: 'default',
      ScheduleExpression: 'at(2099-06-01T12:00:00)',
      ScheduleExpressionTimezone: 'Europe/Paris',
      Description: 'hello',
      State: 'ENABLED',
      ActionAfterCompletion: 'DELETE',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: queueArn,
        RoleArn: ROLE_ARN,
        Input: '{"a":1}',
        RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 86400 },
      },
    });
    expect(got.StartDate).toEqual(new Date('2099-01-01T00:00:00Z'));
    expect(got.CreationDate).toBeInstanceOf(Date);
    expect(got.CreationDate!.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(got.CreationDate!.getTime()).toBeLessThanOrEqual(Date.now() + 1);
    expect(got.LastModificationDate).toEqual(got.CreationDate);
  });

  test('defaults: State ENABLED, ActionAfterCompletion NONE, timezone UTC, AWS default retry policy', async () => {
    await client.send(new CreateScheduleCommand(input('defaults')));
    const got = await client.send(new GetScheduleCommand({ Name: 'defaults', GroupName: 'default' }));
    expect(got.State).toBe('ENABLED');
    expect(got.ActionAfterCompletion).toBe('NONE');
    expect(got.ScheduleExpressionTimezone).toBe('UTC');
    expect(got.Target?.RetryPolicy).toEqual({ MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 });
  });

  test('duplicate create is a ConflictException (409)', async () => {
    await client.send(new CreateScheduleCommand(input('dup')));
    const err = await errorOf(() => client.send(new CreateScheduleCommand(input('dup'))));
    expect(err.name).toBe('ConflictException');
    expect(err.$metadata?.httpStatusCode).toBe(409);
    expect(err.message).toMatch(/already exists/);
  });

  test('a retried create with the same ClientToken is not a conflict', async () => {
    const first = await client.send(new CreateScheduleCommand(input('idem', { ClientToken: 'token-1' })));
    const again = await client.send(new CreateScheduleCommand(input('idem', { ClientToken: 'token-1' })));
    expect(again.ScheduleArn).toBe(first.ScheduleArn);
  });

  test('get, update and delete of an unknown schedule are ResourceNotFoundException (404)', async () => {
    const get = await errorOf(() => client.send(new GetScheduleCommand({ Name: 'missing' })));
    expect(get.name).toBe('ResourceNotFoundException');
    expect(get.$metadata?.httpStatusCode).toBe(404);
    const del = await errorOf(() => client.send(new DeleteScheduleCommand({ Name: 'missing' })));
    expect(del.name).toBe('ResourceNotFoundException');
    const upd = await errorOf(() => client.send(new UpdateScheduleCommand(input('missing'))));
    expect(upd.name).toBe('ResourceNotFoundException');
    const otherGroup = await errorOf(() => client.send(new GetScheduleCommand({ Name: 'defaults', GroupName: 'nogroup' })));
    expect(otherGroup.name).toBe('ResourceNotFoundException');
  });

  test('create in a group that does not exist is ResourceNotFoundException', async () => {
    const err = await errorOf(() => client.send(new CreateScheduleCommand(input('x', { GroupName: 'no-such-group' }))));
    expect(err.name).toBe('ResourceNotFoundException');
    expect(err.message).toMatch(/no-such-group/);
  });

  test.each([
    ['at(2099-13-01T00:00:00)'],
    ['at(2099-02-30T00:00:00)'],
    ['at(2099-01-01 00:00:00)'],
    ['at(2099-01-01T24:00:00)'],
    ['sometime tomorrow'],
  ])('malformed expression %s is a ValidationException (400)', async (expression) => {
    const err = await errorOf(() => client.send(new CreateScheduleCommand(input('bad-expr', { ScheduleExpression: expression }))));
    expect(err.name).toBe('ValidationException');
    expect(err.$metadata?.httpStatusCode).toBe(400);
  });

  test('rate() and cron() are rejected as not supported by the local emulator', async () => {
    for (const expression of ['rate(5 minutes)', 'cron(0 12 * * ? *)']) {
      const err = await errorOf(() => client.send(new CreateScheduleCommand(input('recurring', { ScheduleExpression: expression }))));
      expect(err.name).toBe('ValidationException');
      expect(err.message).toMatch(/not supported by the local emulator/);
    }
  });

  test('missing target, missing flexible time window, bad role, non-SQS target, unknown timezone are ValidationExceptions', async () => {
    const cases: Partial<CreateScheduleCommandInput>[] = [
      { Target: undefined },
      { FlexibleTimeWindow: undefined },
      { FlexibleTimeWindow: { Mode: 'FLEXIBLE' } },
      { Target: { Arn: queueArn, RoleArn: 'not-a-role' } },
      { Target: { Arn: 'arn:aws:lambda:us-east-1:000000000000:function:f', RoleArn: ROLE_ARN } },
      { ScheduleExpressionTimezone: 'Mars/Olympus_Mons' },
      { State: 'PAUSED' as never },
      { Target: { Arn: 'arn:aws:sqs:us-east-1:000000000000:q.fifo', RoleArn: ROLE_ARN } },
    ];
    for (const extra of cases) {
      const err = await errorOf(() =>
        client.send(new CreateScheduleCommand({ ...input('invalid'), ...extra } as CreateScheduleCommandInput)),
      );
      expect({ extra, name: err.name }).toEqual({ extra, name: 'ValidationException' });
    }
    // Nothing was stored by the failed calls.
    expect((await errorOf(() => client.send(new GetScheduleCommand({ Name: 'invalid' })))).name).toBe('ResourceNotFoundException');
  });

  test('update replaces the definition and bumps LastModificationDate', async () => {
    await client.send(new CreateScheduleCommand(input('upd', { Description: 'first' })));
    const before = await client.send(new GetScheduleCommand({ Name: 'upd' }));
    await new Promise((r) => setTimeout(r, 20));
    await client.send(new UpdateScheduleCommand(input('upd', { ScheduleExpression: 'at(2098-01-01T00:00:00)', State: 'DISABLED' })));
    const after = await client.send(new GetScheduleCommand({ Name: 'upd' }));
    expect(after.ScheduleExpression).toBe('at(2098-01-01T00:00:00)');
    expect(after.State).toBe('DISABLED');
    expect(after.Description).toBeUndefined();
    expect(after.CreationDate).toEqual(before.CreationDate);
    expect(after.LastModificationDate!.getTime()).toBeGreaterThan(before.LastModificationDate!.getTime());
  });

  test('delete removes the schedule', async () => {
    await client.send(new CreateScheduleCommand(input('to-delete')));
    await client.send(new DeleteScheduleCommand({ Name: 'to-delete' }));
    const err = await errorOf(() => client.send(new GetScheduleCommand({ Name: 'to-delete' })));
    expect(err.name).toBe('ResourceNotFoundException');
  });
});

describe('listing', () => {
  beforeAll(async () => {
    await client.send(new CreateScheduleGroupCommand({ Name: 'list-group' }));
    for (let i = 0; i < 7; i++) {
      await client.send(
        new CreateScheduleCommand(input(`list-a-${i}`, { GroupName: 'list-group', State: i % 2 ? 'DISABLED' : 'ENABLED' })),
      );
    }
    await client.send(new CreateScheduleCommand(input('list-b-0', { GroupName: 'list-group' })));
    await client.send(new CreateScheduleCommand(input('list-a-in-default')));
  });

  test('NamePrefix and ScheduleGroup filter; summaries carry the SDK fields', async () => {
    const out = await client.send(new ListSchedulesCommand({ NamePrefix: 'list-a-', GroupName: 'list-group' }));
    const names = out.Schedules!.map((s) => s.Name);
    expect(names).toEqual(['list-a-0', 'list-a-1', 'list-a-2', 'list-a-3', 'list-a-4', 'list-a-5', 'list-a-6']);
    expect(out.NextToken).toBeUndefined();
    expect(out.Schedules![0]).toMatchObject({
      Arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/list-group/list-a-0',
      GroupName: 'list-group',
      State: 'ENABLED',
      Target: { Arn: queueArn },
    });
    expect(out.Schedules![0]!.CreationDate).toBeInstanceOf(Date);

    const all = await client.send(new ListSchedulesCommand({ NamePrefix: 'list-' }));
    expect(all.Schedules!.map((s) => `${s.GroupName}/${s.Name}`)).toContain('default/list-a-in-default');
    expect(all.Schedules).toHaveLength(9);
  });

  test('State filter', async () => {
    const out = await client.send(new ListSchedulesCommand({ NamePrefix: 'list-a-', GroupName: 'list-group', State: 'DISABLED' }));
    expect(out.Schedules!.map((s) => s.Name)).toEqual(['list-a-1', 'list-a-3', 'list-a-5']);
  });

  test('pagination with MaxResults and NextToken visits every schedule once', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const out = await client.send(new ListSchedulesCommand({ GroupName: 'list-group', MaxResults: 3, NextToken: token }));
      expect(out.Schedules!.length).toBeLessThanOrEqual(3);
      seen.push(...out.Schedules!.map((s) => s.Name!));
      token = out.NextToken;
      pages += 1;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual(['list-a-0', 'list-a-1', 'list-a-2', 'list-a-3', 'list-a-4', 'list-a-5', 'list-a-6', 'list-b-0']);
  });

  test('invalid MaxResults and NextToken are ValidationExceptions', async () => {
    expect((await errorOf(() => client.send(new ListSchedulesCommand({ MaxResults: 0 })))).name).toBe('ValidationException');
    expect((await errorOf(() => client.send(new ListSchedulesCommand({ MaxResults: 101 })))).name).toBe('ValidationException');
    expect((await errorOf(() => client.send(new ListSchedulesCommand({ NextToken: 'garbage!' })))).name).toBe('ValidationException');
  });
});

describe('schedule groups', () => {
  test('the default group always exists and cannot be deleted or re-created', async () => {
    const got = await client.send(new GetScheduleGroupCommand({ Name: 'default' }));
    expect(got).toMatchObject({ Name: 'default', State: 'ACTIVE', Arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule-group/default' });
    expect(got.CreationDate).toBeInstanceOf(Date);
    expect((await errorOf(() => client.send(new DeleteScheduleGroupCommand({ Name: 'default' })))).name).toBe('ValidationException');
    expect((await errorOf(() => client.send(new CreateScheduleGroupCommand({ Name: 'default' })))).name).toBe('ConflictException');
  });

  test('create, get, list with prefix and pagination, delete (which deletes its schedules)', async () => {
    for (const name of ['grp-1', 'grp-2', 'grp-3']) {
      const out = await client.send(new CreateScheduleGroupCommand({ Name: name }));
      expect(out.ScheduleGroupArn).toBe(`arn:aws:scheduler:us-east-1:000000000000:schedule-group/${name}`);
    }
    expect((await errorOf(() => client.send(new CreateScheduleGroupCommand({ Name: 'grp-1' })))).name).toBe('ConflictException');

    const page1 = await client.send(new ListScheduleGroupsCommand({ NamePrefix: 'grp-', MaxResults: 2 }));
    expect(page1.ScheduleGroups!.map((g) => g.Name)).toEqual(['grp-1', 'grp-2']);
    expect(page1.NextToken).toBeDefined();
    const page2 = await client.send(new ListScheduleGroupsCommand({ NamePrefix: 'grp-', MaxResults: 2, NextToken: page1.NextToken }));
    expect(page2.ScheduleGroups!.map((g) => g.Name)).toEqual(['grp-3']);
    expect(page2.NextToken).toBeUndefined();
    expect(page2.ScheduleGroups![0]).toMatchObject({ State: 'ACTIVE', Arn: expect.stringContaining('schedule-group/grp-3') });

    await client.send(new CreateScheduleCommand(input('in-grp-1', { GroupName: 'grp-1' })));
    await client.send(new DeleteScheduleGroupCommand({ Name: 'grp-1' }));
    expect((await errorOf(() => client.send(new GetScheduleGroupCommand({ Name: 'grp-1' })))).name).toBe('ResourceNotFoundException');
    expect((await errorOf(() => client.send(new GetScheduleCommand({ Name: 'in-grp-1', GroupName: 'grp-1' })))).name).toBe(
      'ResourceNotFoundException',
    );
    expect((await errorOf(() => client.send(new DeleteScheduleGroupCommand({ Name: 'grp-1' })))).name).toBe('ResourceNotFoundException');
  });

  test('group tags: create with tags, tag, untag, list', async () => {
    const { ScheduleGroupArn } = await client.send(
      new CreateScheduleGroupCommand({ Name: 'tagged', Tags: [{ Key: 'team', Value: 'mail' }] }),
    );
    await client.send(
      new TagResourceCommand({
        ResourceArn: ScheduleGroupArn,
        Tags: [
          { Key: 'env', Value: 'local' },
          { Key: 'team', Value: 'ops' },
        ],
      }),
    );
    let tags = await client.send(new ListTagsForResourceCommand({ ResourceArn: ScheduleGroupArn }));
    expect(tags.Tags).toEqual([
      { Key: 'team', Value: 'ops' },
      { Key: 'env', Value: 'local' },
    ]);
    await client.send(new UntagResourceCommand({ ResourceArn: ScheduleGroupArn, TagKeys: ['team'] }));
    tags = await client.send(new ListTagsForResourceCommand({ ResourceArn: ScheduleGroupArn }));
    expect(tags.Tags).toEqual([{ Key: 'env', Value: 'local' }]);
    const err = await errorOf(() =>
      client.send(new ListTagsForResourceCommand({ ResourceArn: 'arn:aws:scheduler:us-east-1:000000000000:schedule-group/nope' })),
    );
    expect(err.name).toBe('ResourceNotFoundException');
  });
});

describe('wire level', () => {
  test('unknown routes and methods answer at once with a JSON error', async () => {
    for (const [method, path] of [
      ['GET', '/nothing-here'],
      ['PATCH', '/schedules/x'],
      ['POST', '/schedules'],
    ] as const) {
      const res = await fetch(`${emulatorUrl}${path}`, { method, signal: AbortSignal.timeout(2000) });
      expect(res.status).toBe(404);
      expect(res.headers.get('x-amzn-errortype')).toBe('UnknownOperationException');
      expect(await res.json()).toEqual({ Message: expect.any(String) });
    }
  });

  test('a body that is not JSON is a ValidationException', async () => {
    const res = await fetch(`${emulatorUrl}/schedules/raw`, {
      method: 'POST',
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toBe('ValidationException');
  });
});
