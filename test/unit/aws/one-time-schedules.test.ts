/** One-time schedules' upsert against a scripted EventBridge Scheduler: create, move, and a schedule that fires in between. */
import {
  ConflictException,
  CreateScheduleCommand,
  ResourceNotFoundException,
  UpdateScheduleCommand,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { OneTimeSchedules } from '#shared/adapters/aws/eventbridge-schedules';

const settings = { group: 'g', targetArn: 'arn:aws:sqs:us-east-1:0:q', roleArn: 'arn:aws:iam::0:role/r' };
const conflict = () => new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} });
const gone = () => new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} });

/** A client answering each call with the next scripted outcome (an error to throw, or nothing). */
function scripted(outcomes: (Error | null)[]) {
  const calls: string[] = [];
  const client = {
    send: async (command: unknown) => {
      calls.push(command instanceof CreateScheduleCommand ? 'create' : command instanceof UpdateScheduleCommand ? 'update' : 'other');
      const outcome = outcomes.shift();
      if (outcome) throw outcome;
    },
  } as unknown as SchedulerClient;
  return { client, calls };
}

const at = new Date('2026-11-25T10:00:00.000Z');

it('creates a new schedule with one call', async () => {
  const { client, calls } = scripted([null]);
  await new OneTimeSchedules(client, settings).upsert('msg_1', at, {});
  expect(calls).toEqual(['create']);
});

it('moves an existing one', async () => {
  const { client, calls } = scripted([conflict(), null]);
  await new OneTimeSchedules(client, settings).upsert('msg_1', at, {});
  expect(calls).toEqual(['create', 'update']);
});

it('one that fired and was deleted between the creation and the update is made again (a reschedule racing the firing)', async () => {
  const { client, calls } = scripted([conflict(), gone(), null]);
  await new OneTimeSchedules(client, settings).upsert('msg_1', at, {});
  expect(calls).toEqual(['create', 'update', 'create']);
});

it('gives up after three rounds, and on any other error at once', async () => {
  const endless = scripted([conflict(), gone(), conflict(), gone(), conflict(), gone()]);
  await expect(new OneTimeSchedules(endless.client, settings).upsert('msg_1', at, {})).rejects.toThrow('gone');
  expect(endless.calls).toHaveLength(6);
  const other = scripted([new Error('throttled')]);
  await expect(new OneTimeSchedules(other.client, settings).upsert('msg_1', at, {})).rejects.toThrow('throttled');
  expect(other.calls).toEqual(['create']);
});
