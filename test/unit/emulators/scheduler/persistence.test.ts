/**
 * Persistence: schedules and groups survive a restart on the same dataDir, and a schedule that came
 * due while the emulator was down fires when it starts again.
 */
import {
  CreateScheduleCommand,
  CreateScheduleGroupCommand,
  GetScheduleCommand,
  GetScheduleGroupCommand,
  ListSchedulesCommand,
} from '@aws-sdk/client-scheduler';
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StateFile } from '#localstack/emulators/scheduler/state-file';
import { SchedulerStore } from '#localstack/emulators/scheduler/store';
import type { ScheduleRecord } from '#localstack/emulators/scheduler/types';
import { atIn, createHarness, errorOf, queueName, receive, ROLE_ARN, sleep, sleepUntil, tempDir, type Harness } from './harness';

let h: Harness;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  h = await createHarness();
  ({ dir, cleanup } = await tempDir());
});

afterAll(async () => {
  await h.close();
  await cleanup();
});

test('a schedule created before a stop fires after a restart on the same dataDir', async () => {
  const q = h.fx.createQueue(queueName('persist'));
  const first = await h.start(dir);
  await first.client.send(new CreateScheduleGroupCommand({ Name: 'kept-group', Tags: [{ Key: 'k', Value: 'v' }] }));
  const { expression, dueAt } = atIn(1000);
  await first.client.send(
    new CreateScheduleCommand({
      Name: 'survivor',
      GroupName: 'kept-group',
      ScheduleExpression: expression,
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: q.queueArn, RoleArn: ROLE_ARN, Input: 'after-restart' },
    }),
  );
  await first.client.send(
    new CreateScheduleCommand({
      Name: 'far-future',
      ScheduleExpression: 'at(2099-01-01T00:00:00)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: q.queueArn, RoleArn: ROLE_ARN },
    }),
  );
  const before = await first.client.send(new GetScheduleCommand({ Name: 'far-future' }));
  expect(first.emulator.count()).toBe(2);
  await first.emulator.stop();

  const file = JSON.parse(await readFile(path.join(dir, 'schedules.json'), 'utf8')) as { schedules: unknown[] };
  expect(file.schedules).toHaveLength(2);

  // Down while the schedule comes due.
  await sleepUntil(dueAt + 300);
  expect(await receive(h.sqs, q.queueUrl, 0)).toHaveLength(0);

  const second = await h.start(dir);
  const messages = await receive(h.sqs, q.queueUrl, 5);
  expect(messages.map((m) => m.Body)).toEqual(['after-restart']);

  const group = await second.client.send(new GetScheduleGroupCommand({ Name: 'kept-group' }));
  expect(group.Name).toBe('kept-group');
  const after = await second.client.send(new GetScheduleCommand({ Name: 'far-future' }));
  expect(after.CreationDate).toEqual(before.CreationDate);
  expect(after.Arn).toBe(before.Arn);
  await sleep(200);
  expect((await errorOf(() => second.client.send(new GetScheduleCommand({ Name: 'survivor', GroupName: 'kept-group' })))).name).toBe(
    'ResourceNotFoundException',
  );
  expect(second.emulator.count()).toBe(1);
  await second.emulator.stop();

  // The deletion after firing was persisted too.
  const third = await h.start(dir);
  const list = await third.client.send(new ListSchedulesCommand({}));
  expect(list.Schedules?.map((s) => s.Name)).toEqual(['far-future']);
  await third.emulator.stop();
});

test('a fired NONE schedule is remembered as completed and does not fire again after a restart', async () => {
  const { dir: d, cleanup: c } = await tempDir();
  try {
    const q = h.fx.createQueue(queueName('once'));
    const first = await h.start(d);
    await first.client.send(
      new CreateScheduleCommand({
        Name: 'once',
        ScheduleExpression: atIn(0).expression,
        FlexibleTimeWindow: { Mode: 'OFF' },
        Target: { Arn: q.queueArn, RoleArn: ROLE_ARN },
      }),
    );
    expect(await receive(h.sqs, q.queueUrl, 5)).toHaveLength(1);
    await sleep(100);
    await first.emulator.stop();
    const second = await h.start(d);
    await sleep(500);
    expect(await receive(h.sqs, q.queueUrl, 0)).toHaveLength(0);
    expect(second.emulator.count()).toBe(1);
    await second.emulator.stop();
  } finally {
    await c();
  }
});

test('in-memory mode (no dataDir) forgets everything on restart', async () => {
  const first = await h.start();
  await first.client.send(
    new CreateScheduleCommand({
      Name: 'ephemeral',
      ScheduleExpression: 'at(2099-01-01T00:00:00)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: 'arn:aws:sqs:us-east-1:000000000000:nowhere', RoleArn: ROLE_ARN },
    }),
  );
  expect(first.emulator.count()).toBe(1);
  await first.emulator.stop();
  const second = await h.start();
  expect(second.emulator.count()).toBe(0);
  await second.emulator.stop();
});

test('acknowledged changes are on disk before any stop (journal): a crash loses nothing', async () => {
  const { dir: d, cleanup: c } = await tempDir();
  try {
    const first = await h.start(d);
    for (const name of ['j1', 'j2', 'j3']) {
      await first.client.send(
        new CreateScheduleCommand({
          Name: name,
          ScheduleExpression: 'at(2099-01-01T00:00:00)',
          FlexibleTimeWindow: { Mode: 'OFF' },
          Target: { Arn: 'arn:aws:sqs:us-east-1:000000000000:nowhere', RoleArn: ROLE_ARN },
        }),
      );
    }
    // Without stopping the first emulator (as if it had crashed), a second one reads the same state.
    const second = await h.start(d);
    const list = await second.client.send(new ListSchedulesCommand({}));
    expect(list.Schedules?.map((s) => s.Name)).toEqual(['j1', 'j2', 'j3']);
    await second.emulator.stop();
    await first.emulator.stop();
  } finally {
    await c();
  }
});

test('recovery: a torn last journal line is ignored, and journal entries already in the snapshot are not replayed', async () => {
  const { dir: d, cleanup: c } = await tempDir();
  try {
    const arnPrefix = 'arn:aws:scheduler:us-east-1:000000000000';
    const record = (description: string): ScheduleRecord => ({
      Name: 'x',
      GroupName: 'default',
      Arn: `${arnPrefix}:schedule/default/x`,
      ScheduleExpression: 'at(2099-01-01T00:00:00)',
      Description: description,
      State: 'ENABLED',
      Target: { Arn: 'arn:aws:sqs:us-east-1:000000000000:q', RoleArn: ROLE_ARN },
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'NONE',
      CreationDate: 0,
      LastModificationDate: 0,
      fireAt: Date.UTC(2099, 0, 1),
      fired: false,
    });
    const a = new SchedulerStore(d, arnPrefix);
    await a.load(Date.now());
    a.putSchedule(record('v1'));
    await a.persist();
    const journal = path.join(d, 'schedules.journal');
    const oldJournal = await readFile(journal, 'utf8');
    a.putSchedule(record('v2'));
    await a.flush(); // snapshot with v2; journal removed

    // Crash between snapshot rename and journal removal, plus a half-written append.
    await writeFile(journal, oldJournal);
    await appendFile(journal, '{"seq":99,"op":"putSch');
    const b = new SchedulerStore(d, arnPrefix);
    await b.load(Date.now());
    expect(b.getSchedule('default', 'x')?.Description).toBe('v2');

    // New changes after recovery still land.
    b.putSchedule(record('v3'));
    await b.persist();
    const c2 = new SchedulerStore(d, arnPrefix);
    await c2.load(Date.now());
    expect(c2.getSchedule('default', 'x')?.Description).toBe('v3');
  } finally {
    await c();
  }
});

test('recovery: after an append that failed part-way the next write is a snapshot, so the journal never has a torn line in the middle', async () => {
  const { dir: d, cleanup: c } = await tempDir();
  const spy = jest.spyOn(StateFile.prototype, 'append');
  try {
    const arnPrefix = 'arn:aws:scheduler:us-east-1:000000000000';
    const record = (name: string): ScheduleRecord => ({
      Name: name,
      GroupName: 'default',
      Arn: `${arnPrefix}:schedule/default/${name}`,
      ScheduleExpression: 'at(2099-01-01T00:00:00)',
      State: 'ENABLED',
      Target: { Arn: 'arn:aws:sqs:us-east-1:000000000000:q', RoleArn: ROLE_ARN },
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'NONE',
      CreationDate: 0,
      LastModificationDate: 0,
      fireAt: Date.UTC(2099, 0, 1),
      fired: false,
    });
    const a = new SchedulerStore(d, arnPrefix);
    await a.load(Date.now());
    a.putSchedule(record('first'));
    await a.persist();
    // The disk fills up in the middle of the next append.
    spy.mockImplementationOnce(async function (this: StateFile) {
      await appendFile(this.journalPath, '{"seq":3,"op":"putSch');
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    });
    a.putSchedule(record('second'));
    await expect(a.persist()).rejects.toThrow(/ENOSPC/);
    a.putSchedule(record('third'));
    await a.persist();

    const b = new SchedulerStore(d, arnPrefix);
    await b.load(Date.now());
    expect(b.sortedSchedules().map((s) => s.Name)).toEqual(['first', 'second', 'third']);
  } finally {
    spy.mockRestore();
    await c();
  }
});

test('recovery: a temporary snapshot left by a kill during a snapshot write is removed on start', async () => {
  const { dir: d, cleanup: c } = await tempDir();
  try {
    await writeFile(path.join(d, 'schedules.json.4242.tmp'), '{"version":1,"seq":1,"gro');
    const store = new SchedulerStore(d, 'arn:aws:scheduler:us-east-1:000000000000');
    await store.load(Date.now());
    expect(await readdir(d)).not.toContain('schedules.json.4242.tmp');
  } finally {
    await c();
  }
});
