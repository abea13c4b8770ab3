/** localstack/cloud/relay-task/relay-task-preloads.ts: a bench's preloads reach the relay task, whose image sets NODE_OPTIONS. */
import { requirePreloads, withLocalPreloads } from '#localstack/cloud/relay-task/relay-task-preloads';

describe("the local cloud's preloads in the relay task", () => {
  it('finds each --require form and nothing else', () => {
    expect(requirePreloads('--max-old-space-size=512 --require /b/sdk.cjs -r /b/cpu.cjs --require=/b/x.cjs --enable-source-maps')).toEqual([
      '--require',
      '/b/sdk.cjs',
      '-r',
      '/b/cpu.cjs',
      '--require=/b/x.cjs',
    ]);
    expect(requirePreloads(undefined)).toEqual([]);
    expect(requirePreloads('--enable-source-maps')).toEqual([]);
  });

  it("adds them after the image's NODE_OPTIONS, and changes nothing without them", () => {
    const env = { NODE_OPTIONS: '--enable-source-maps', NODE_ENV: 'production' };
    expect(withLocalPreloads(env, '--require /b/sdk.cjs')).toEqual({
      NODE_OPTIONS: '--enable-source-maps --require /b/sdk.cjs',
      NODE_ENV: 'production',
    });
    expect(withLocalPreloads(env, '--max-old-space-size=512')).toBe(env);
    expect(withLocalPreloads({}, '--require /b/sdk.cjs')).toEqual({ NODE_OPTIONS: '--require /b/sdk.cjs' });
  });
});
