/**
 * dryRunSteps (shared/domain/automations/dry-run.ts): the pure walk of a dry run. Every step type, a
 * false condition ending early, waits assumed received (on_timeout unused), `next` jumps, a failing
 * preview, the cycle guard.
 */
import type { SendEmailStep, Step } from '#shared/domain/automations/automation';
import { dryRunSteps, type DryRunEvent, type EmailPreviewResult, type PreviewEmail } from '#shared/domain/automations/dry-run';

const event: DryRunEvent = { name: 'user.created', user_id: '42', email: 'ada@example.com', data: { plan: 'free', first_name: 'Ada' } };

const send = (key: string, over: Partial<SendEmailStep> = {}): Step => ({
  key,
  type: 'send_email',
  to: ['{{event.email}}'],
  from: 'a@acme.test',
  subject: `Subject ${key}`,
  text: 'Hi',
  ...over,
});
const delay = (key: string, duration: string, over: Partial<Step> = {}) => ({ key, type: 'delay', duration, ...over }) as Step;
const wait = (key: string, onTimeout: string, over: Partial<Step> = {}) =>
  ({ key, type: 'wait_for_event', event: 'user.upgraded', timeout: '7 days', on_timeout: onTimeout, ...over }) as Step;
const condition = (key: string, value: string, over: Partial<Step> = {}) =>
  ({ key, type: 'condition', field: 'event.data.plan', operator: 'eq', value, ...over }) as Step;

/** A preview that names the step; records each call. */
function recordingPreview(errors: Record<string, string> = {}) {
  const calls: { key: string; event: DryRunEvent }[] = [];
  const preview: PreviewEmail = (step, ev): EmailPreviewResult => {
    calls.push({ key: step.key, event: ev });
    if (errors[step.key]) return { error: errors[step.key]! };
    return { to: ['ada@example.com'], from: 'a@acme.test', subject: step.subject ?? '', category: 'transactional', missing: [] };
  };
  return { preview, calls };
}

const stubbed = (index: number, key: string) => ({
  index,
  key,
  type: 'send_email',
  status: 'stubbed',
  output: { to: ['ada@example.com'], from: 'a@acme.test', subject: `Subject ${key}`, category: 'transactional', missing: [] },
  error: null,
});

describe('dryRunSteps', () => {
  it('walks every step type: sends stubbed, delays and waits skipped, conditions evaluated', () => {
    const { preview, calls } = recordingPreview();
    const steps = [
      send('welcome'),
      delay('wait-2-days', '2 days'),
      condition('still-free', 'free'),
      wait('upgraded', 'end'),
      send('thanks'),
    ];
    expect(dryRunSteps(steps, event, preview)).toEqual({
      status: 'completed',
      ended_early: false,
      error: null,
      steps: [
        stubbed(0, 'welcome'),
        {
          index: 1,
          key: 'wait-2-days',
          type: 'delay',
          status: 'skipped',
          output: { duration: '2 days', would_wait_ms: 2 * 86_400_000 },
          error: null,
        },
        {
          index: 2,
          key: 'still-free',
          type: 'condition',
          status: 'completed',
          output: { result: true, trace: ['event.data.plan eq "free": "free" -> true'] },
          error: null,
        },
        {
          index: 3,
          key: 'upgraded',
          type: 'wait_for_event',
          status: 'skipped',
          output: { event: 'user.upgraded', timeout: '7 days', assumed: 'event_received' },
          error: null,
        },
        stubbed(4, 'thanks'),
      ],
    });
    expect(calls).toEqual([
      { key: 'welcome', event },
      { key: 'thanks', event },
    ]);
  });

  it('ISO durations: would_wait_ms is the delay in milliseconds', () => {
    const result = dryRunSteps([delay('d', 'P1DT12H')], event, recordingPreview().preview);
    expect(result.steps[0]!.output).toEqual({ duration: 'P1DT12H', would_wait_ms: 36 * 3_600_000 });
    expect(result.status).toBe('completed');
  });

  it('a false condition ends the run completed, ended early; later steps are not reached', () => {
    const { preview, calls } = recordingPreview();
    const result = dryRunSteps([condition('is-pro', 'pro'), send('upsell')], event, preview);
    expect(result).toEqual({
      status: 'completed',
      ended_early: true,
      error: null,
      steps: [
        {
          index: 0,
          key: 'is-pro',
          type: 'condition',
          status: 'completed',
          output: { result: false, trace: ['event.data.plan eq "pro": "free" -> false'] },
          error: null,
        },
      ],
    });
    expect(calls).toEqual([]);
  });

  it('a false condition on the last step is ended early too (as the run engine: the run ends there)', () => {
    const result = dryRunSteps([send('a'), condition('last', 'pro')], event, recordingPreview().preview);
    expect(result.ended_early).toBe(true);
    expect(result.status).toBe('completed');
    expect(result.steps.map((step) => step.key)).toEqual(['a', 'last']);
  });

  it('group conditions give every line of the trace', () => {
    const group = {
      key: 'g',
      type: 'condition',
      any: [
        { field: 'event.data.plan', operator: 'eq', value: 'pro' },
        { field: 'event.email', operator: 'ends_with', value: '@example.com' },
      ],
    } as Step;
    const result = dryRunSteps([group], event, recordingPreview().preview);
    expect(result.steps[0]!.output).toEqual({
      result: true,
      trace: [
        'any (1 of 2 true) -> true',
        '  event.data.plan eq "pro": "free" -> false',
        '  event.email ends_with "@example.com": "ada@example.com" -> true',
      ],
    });
    expect(result.ended_early).toBe(false);
  });

  it('a wait is assumed received: on_timeout (end, continue or a key) is never followed', () => {
    for (const onTimeout of ['end', 'continue', 'fallback']) {
      const steps = [wait('w', onTimeout), send('after'), send('fallback')];
      const result = dryRunSteps(steps, event, recordingPreview().preview);
      expect(result.status).toBe('completed');
      expect(result.steps.map((step) => [step.key, step.status])).toEqual([
        ['w', 'skipped'],
        ['after', 'stubbed'],
        ['fallback', 'stubbed'],
      ]);
    }
  });

  it('a wait with next goes to its next, like a received event', () => {
    const steps = [wait('w', 'a', { next: 'c' }), send('a'), send('b'), send('c')];
    expect(dryRunSteps(steps, event, recordingPreview().preview).steps.map((step) => step.key)).toEqual(['w', 'c']);
  });

  it('next jumps forward and back, as a run goes', () => {
    // a -> c -> b (back) -> d; a jump to a missing key ends the run (as flowAfter).
    const steps = [
      send('a', { next: 'c' }),
      send('b', { next: 'd' }),
      delay('c', '1 hour', { next: 'b' }),
      condition('d', 'free'),
      send('e', { next: 'nowhere' }),
      send('f'),
    ];
    const result = dryRunSteps(steps, event, recordingPreview().preview);
    expect(result.steps.map((step) => [step.index, step.key])).toEqual([
      [0, 'a'],
      [2, 'c'],
      [1, 'b'],
      [3, 'd'],
      [4, 'e'],
    ]);
    expect(result).toMatchObject({ status: 'completed', ended_early: false, error: null });
  });

  it('a preview error fails the dry run at that step, where the real run would fail', () => {
    const { preview, calls } = recordingPreview({ second: "no recipient: the step's to ({{event.email}}) is empty for this event" });
    const result = dryRunSteps([send('first'), send('second'), send('third')], event, preview);
    expect(result).toEqual({
      status: 'failed',
      ended_early: false,
      error: "no recipient: the step's to ({{event.email}}) is empty for this event",
      steps: [
        stubbed(0, 'first'),
        {
          index: 1,
          key: 'second',
          type: 'send_email',
          status: 'failed',
          output: null,
          error: "no recipient: the step's to ({{event.email}}) is empty for this event",
        },
      ],
    });
    expect(calls.map((call) => call.key)).toEqual(['first', 'second']);
  });

  it('a stored delay that is not a duration fails there (as the run engine)', () => {
    const result = dryRunSteps([delay('d', '2 fortnights'), send('never')], event, recordingPreview().preview);
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/^"2 fortnights" is not a duration/);
    expect(result.steps).toEqual([{ index: 0, key: 'd', type: 'delay', status: 'failed', output: null, error: result.error }]);
  });

  it('a cycle (refused by validation, guarded anyway) stops after steps.length * 2 visits', () => {
    const { preview, calls } = recordingPreview();
    const result = dryRunSteps([send('a', { next: 'b' }), delay('b', '1 hour', { next: 'a' })], event, preview);
    expect(result.status).toBe('failed');
    expect(result.error).toBe('the dry run stopped after 4 steps: the steps go round in a cycle (at step a)');
    expect(result.steps.map((step) => step.key)).toEqual(['a', 'b', 'a', 'b']);
    expect(calls).toHaveLength(2);
  });

  it('no steps: completed with an empty trace', () => {
    expect(dryRunSteps([], event, recordingPreview().preview)).toEqual({ status: 'completed', ended_early: false, error: null, steps: [] });
  });

  it('an unknown stored step type fails there', () => {
    const result = dryRunSteps([{ key: 'x', type: 'send_sms' } as unknown as Step], event, recordingPreview().preview);
    expect(result).toEqual({
      status: 'failed',
      ended_early: false,
      error: 'unknown step type "send_sms"',
      steps: [{ index: 0, key: 'x', type: 'send_sms', status: 'failed', output: null, error: 'unknown step type "send_sms"' }],
    });
  });
});
