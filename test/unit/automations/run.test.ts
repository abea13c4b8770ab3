/** The run record: one id per (automation, event), a copy of the steps and version, the first step pending. */
import type { Step } from '#shared/domain/automations/automation';
import { newRun, runIdFor } from '#shared/domain/automations/run';

const steps = [{ key: 'wait', type: 'delay', duration: '1 day' }] as unknown as Step[];
const event = {
  id: 'evt_01JD0000000000000000000000',
  name: 'user.created',
  user_id: null,
  email: 'a@b.test',
  data: {},
  created_at: '2026-11-23T10:00:00.000Z',
};

describe('runs', () => {
  it('derives the run id from the automation and the event: the same pair, the same id, whenever it is started', () => {
    const a = newRun({
      automation: { id: 'auto_1', account_id: 'acc_1', name: 'A', version: 2, steps, allowed_domains: null },
      event,
      subject: 'email:a@b.test',
      now: new Date('2026-11-23T10:00:01Z'),
    });
    const b = newRun({
      automation: { id: 'auto_1', account_id: 'acc_1', name: 'A', version: 3, steps, allowed_domains: null },
      event,
      subject: 'email:a@b.test',
      now: new Date('2026-11-24T10:00:00Z'),
    });
    expect(a.id).toBe(b.id);
    expect(a.id).toMatch(/^run_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(runIdFor('auto_2', event.id, Date.parse(event.created_at))).not.toBe(a.id);
    expect(runIdFor('auto_1', 'evt_01JD0000000000000000000001', Date.parse(event.created_at))).not.toBe(a.id);
  });

  it('starts at the first step, pending, with its own copy of the steps and the version', () => {
    const run = newRun({
      automation: { id: 'auto_1', account_id: 'acc_1', name: 'A', version: 2, steps, allowed_domains: null },
      event,
      subject: null,
      now: new Date('2026-11-23T10:00:01Z'),
    });
    expect(run).toMatchObject({
      status: 'running',
      step_index: 0,
      step_state: 'pending',
      attempt: 0,
      automation_version: 2,
      history: [],
      ended_at: null,
      created_at: '2026-11-23T10:00:01.000Z',
    });
    expect(run.steps).toEqual(steps);
  });
});
