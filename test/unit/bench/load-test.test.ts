/** `npm run test:load`'s pieces (bench/load/): its command line and the open-loop schedule, with a fake clock. */
import { openLoop } from '#bench/load/open-loop';
import { parseLoadOptions } from '#bench/load/options';

const base = ['--url', 'https://api.example.com/', '--key', 'svc_x', '--from', 'a@example.com'];

describe('test:load options', () => {
  it('takes the API, key and sender, with defaults for the rest', () => {
    expect(parseLoadOptions(base)).toEqual({
      url: 'https://api.example.com',
      key: 'svc_x',
      from: 'a@example.com',
      to: 'success@simulator.amazonses.com',
      rate: 10,
      minutes: 1,
      htmlKb: 0,
      maxInFlight: 500,
      trackEvery: 10,
      settleSeconds: 60,
      localInbox: false,
    });
    expect(parseLoadOptions([...base, '--webhook-url', 'https://hooks.example.com/x', '--webhook-listen', '8080'])).toMatchObject({
      webhookUrl: 'https://hooks.example.com/x',
      webhookListen: 8080,
    });
  });

  it('refuses what it cannot run, naming the flag', () => {
    expect(() => parseLoadOptions(['--key', 'k', '--from', 'a@b.c'])).toThrow(/--url/);
    expect(() => parseLoadOptions(['--url', 'https://x', '--from', 'a@b.c'])).toThrow(/--key/);
    expect(() => parseLoadOptions(['--url', 'https://x', '--key', 'k'])).toThrow(/--from/);
    expect(() => parseLoadOptions([...base, '--rate', '0'])).toThrow(/--rate takes a number from 0.1/);
    expect(() => parseLoadOptions([...base, '--html-kb', '1.5'])).toThrow(/--html-kb takes a whole number/);
    expect(() => parseLoadOptions([...base, '--webhook-url', 'https://h.example.com'])).toThrow(/--webhook-listen .* or --local-inbox/);
    expect(() => parseLoadOptions([...base, '--webhook-url', 'http://h.example.com', '--local-inbox'])).toThrow(/https:\/\//);
    expect(() => parseLoadOptions([...base, '--webhook-listen', '80'])).toThrow(/--webhook-url takes/);
  });
});

describe('the open loop', () => {
  /** A fake clock: sleep moves it. */
  function clock() {
    let t = 0;
    return {
      now: () => t,
      sleep: async (ms: number) => {
        t += ms;
      },
    };
  }

  it('issues operation k at k / rate seconds whatever the answers, and counts the answers', async () => {
    const c = clock();
    const issuedAt: number[] = [];
    const result = await openLoop({ rate: 4, durationMs: 2000, maxInFlight: 100, ...c }, async (k) => {
      issuedAt.push(c.now());
      if (k === 3) throw Object.assign(new Error('reset'), { code: 'ECONNRESET' });
      return k % 2 ? { ok: false, label: '429 rate_limit_exceeded' } : { ok: true, label: '200' };
    });
    expect(issuedAt).toEqual([0, 250, 500, 750, 1000, 1250, 1500, 1750]);
    expect(result).toMatchObject({ issued: 8, notIssued: 0, ok: 4, outcomes: { '200': 4, '429 rate_limit_exceeded': 3, ECONNRESET: 1 } });
    expect(result.latencies).toHaveLength(8);
  });

  it('does not issue past maxInFlight unanswered: those sends are counted as not issued', async () => {
    const c = clock();
    const waiting: (() => void)[] = [];
    const run = openLoop(
      { rate: 10, durationMs: 1000, maxInFlight: 3, ...c },
      () => new Promise((resolve) => waiting.push(() => resolve({ ok: true, label: '200' }))),
    );
    await new Promise((resolve) => setImmediate(resolve));
    for (const answer of waiting) answer();
    const result = await run;
    expect(result).toMatchObject({ issued: 3, notIssued: 7, ok: 3 });
  });
});
