/** Where a run goes after a step (flowAfter) and after a wait's timeout (flowAfterTimeout). */
import type { Step } from '#shared/domain/automations/automation';
import { flowAfter, flowAfterTimeout } from '#shared/domain/automations/step-flow';

const send = (key: string, next?: string) =>
  ({ key, type: 'send_email', to: ['{{event.email}}'], from: 'a@acme.test', subject: 's', text: 't', ...(next ? { next } : {}) }) as Step;
const wait = (key: string, onTimeout?: string, next?: string) =>
  ({
    key,
    type: 'wait_for_event',
    event: 'user.upgraded',
    timeout: '7 days',
    ...(onTimeout !== undefined ? { on_timeout: onTimeout } : {}),
    ...(next ? { next } : {}),
  }) as Step;

describe('flowAfter', () => {
  const steps = [send('a'), send('b', 'd'), send('c'), send('d')];

  it('goes to the following step without a next key', () => {
    expect(flowAfter(steps, 0)).toEqual({ next: 1 });
    expect(flowAfter(steps, 2)).toEqual({ next: 3 });
  });

  it('goes to the step a next key names (forward or back)', () => {
    expect(flowAfter(steps, 1)).toEqual({ next: 3 });
    expect(flowAfter([send('a'), send('b'), send('c', 'b')], 2)).toEqual({ next: 1 });
  });

  it('ends after the last step', () => {
    expect(flowAfter(steps, 3)).toEqual({ end: true });
    expect(flowAfter([send('only')], 0)).toEqual({ end: true });
  });

  it('a next key naming no step ends the run (a stored copy from an older rule)', () => {
    expect(flowAfter([send('a', 'gone'), send('b')], 0)).toEqual({ end: true });
  });

  it('an index past the steps ends the run', () => {
    expect(flowAfter(steps, 7)).toEqual({ end: true });
  });
});

describe('flowAfterTimeout', () => {
  it('ends by default (on_timeout absent) and with on_timeout end, even when steps follow', () => {
    expect(flowAfterTimeout([wait('w'), send('after')], 0)).toEqual({ end: true });
    expect(flowAfterTimeout([wait('w', 'end'), send('after')], 0)).toEqual({ end: true });
  });

  it("continue goes on as if the event came: the following step, or the wait's next key, or the end", () => {
    expect(flowAfterTimeout([wait('w', 'continue'), send('after')], 0)).toEqual({ next: 1 });
    expect(flowAfterTimeout([wait('w', 'continue', 'c'), send('b'), send('c')], 0)).toEqual({ next: 2 });
    expect(flowAfterTimeout([send('a'), wait('w', 'continue')], 1)).toEqual({ end: true });
  });

  it('a step key jumps to that step (not to next)', () => {
    expect(flowAfterTimeout([wait('w', 'reminder', 'thanks'), send('thanks'), send('reminder')], 0)).toEqual({ next: 2 });
  });

  it('an on_timeout key naming no step ends the run', () => {
    expect(flowAfterTimeout([wait('w', 'gone'), send('after')], 0)).toEqual({ end: true });
  });
});
