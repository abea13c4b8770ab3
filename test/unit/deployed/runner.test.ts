/** The deployed suite's runner (test/deployed/runner.ts): statuses, aborts, and the cleanup on failure. */
import { parseOptions } from '../../deployed/options';
import { runSteps, Skip, type Step } from '../../deployed/runner';
import { CheckFailed } from '../../deployed/client';

const local = parseOptions(['--url', 'http://127.0.0.1:1', '--key', 'svc_x'])!;
const aws = { ...local, target: 'aws' as const };

function step(name: string, run: Step['run'], extra: Partial<Step> = {}): Step {
  return { name, run, ...extra };
}

describe('test:deployed runner', () => {
  it('reports PASS, SKIP and FAIL with the failing answer; a check only SES settles is ONLY-AWS locally, PASS on AWS', async () => {
    const answer = { method: 'GET', path: '/x', status: 500, headers: new Headers(), body: {}, text: '{"error":{"message":"boom"}}' };
    const steps = [
      step('passes', async (ctx) => ctx.note('found 1')),
      step('skips', async () => {
        throw new Skip('no --webhook-url');
      }),
      step('fails', async () => {
        throw new CheckFailed('GET /x answered 500', answer);
      }),
      step('ses', async () => {}, { settles: 'a question' }),
    ];
    const report = await runSteps(local, steps, () => {});
    expect(report.ok).toBe(false);
    expect(report.steps.map(({ name, status, note, error, answer: failing }) => ({ name, status, note, error, answer: failing }))).toEqual([
      { name: 'passes', status: 'PASS', note: 'found 1', error: undefined, answer: undefined },
      { name: 'skips', status: 'SKIP', note: 'no --webhook-url', error: undefined, answer: undefined },
      {
        name: 'fails',
        status: 'FAIL',
        note: undefined,
        error: 'GET /x answered 500',
        answer: { request: 'GET /x', status: 500, body: '{"error":{"message":"boom"}}' },
      },
      { name: 'ses', status: 'ONLY-AWS', note: undefined, error: undefined, answer: undefined },
    ]);
    expect((await runSteps(aws, [steps[3]!], () => {})).steps[0]).toMatchObject({ status: 'PASS', settles: 'a question' });
    expect((await runSteps(aws, [steps[0]!, steps[1]!], () => {})).ok).toBe(true);
  });

  it('skips every step after a critical one fails', async () => {
    const ran: string[] = [];
    const report = await runSteps(
      local,
      [
        step(
          'key',
          async () => {
            throw new Error('401');
          },
          { critical: true },
        ),
        step('next', async () => {
          ran.push('next');
        }),
      ],
      () => {},
    );
    expect(ran).toEqual([]);
    expect(report.steps[1]).toMatchObject({ name: 'next', status: 'SKIP', note: 'not run: key failed' });
  });

  it('removes what the steps created, last first, after a failure, and reports a cleanup that fails', async () => {
    const undone: string[] = [];
    const seen: string[] = [];
    const report = await runSteps(
      local,
      [
        step('creates', async (ctx) => {
          ctx.cleanup.add('domain a', async () => {
            undone.push('domain a');
          });
          ctx.cleanup.add('webhook b', async () => {
            undone.push('webhook b');
            throw new Error('DELETE /webhooks/b answered 500');
          });
          ctx.cleanup.add('template c', async () => {
            undone.push('template c');
          });
          ctx.cleanup.done('template c');
        }),
        step('fails', async () => {
          throw new Error('broken');
        }),
      ],
      (result) => seen.push(`${result.status} ${result.name}`),
    );
    expect(undone).toEqual(['webhook b', 'domain a']);
    expect(seen).toEqual(['PASS creates', 'FAIL fails', 'FAIL cleanup: webhook b', 'PASS cleanup: domain a']);
    expect(report.steps.at(-2)).toMatchObject({ error: 'DELETE /webhooks/b answered 500' });
    expect(report.ok).toBe(false);
  });

  it('stops before the next step when interrupted, and still cleans up', async () => {
    const interrupted = { stop: false };
    const undone: string[] = [];
    const report = await runSteps(
      local,
      [
        step('creates', async (ctx) => {
          ctx.cleanup.add('suppression x', async () => {
            undone.push('suppression x');
          });
          interrupted.stop = true;
        }),
        step('later', async () => {
          throw new Error('must not run');
        }),
      ],
      () => {},
      interrupted,
    );
    expect(report.steps.map((one) => `${one.status} ${one.name}`)).toEqual(['PASS creates', 'SKIP later', 'PASS cleanup: suppression x']);
    expect(undone).toEqual(['suppression x']);
  });
});
