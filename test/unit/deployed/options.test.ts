/** The command line of `npm run test:deployed` (test/deployed/options.ts). */
import { isLoopback, parseOptions, SIMULATOR_SUCCESS, UsageError } from '../../deployed/options';

describe('test:deployed options', () => {
  it('defaults: the sandbox sender, the SES simulator, 120 s waits, a burst of 10, the target from the URL', () => {
    expect(parseOptions(['--url', 'http://127.0.0.1:3000/', '--key', 'svc_x'])).toEqual({
      url: 'http://127.0.0.1:3000',
      key: 'svc_x',
      from: 'smoke@sandbox.mailservice.dev',
      to: SIMULATOR_SUCCESS,
      webhookUrl: undefined,
      timeoutMs: 120_000,
      target: 'local',
      burst: 10,
      json: false,
    });
    expect(parseOptions(['--url', 'https://abc123.execute-api.eu-west-1.amazonaws.com', '--key', 'svc_x'])!.target).toBe('aws');
  });

  it('takes every option, and --target over the URL', () => {
    const options = parseOptions([
      '--url',
      'https://api.example.com/prod/',
      '--key',
      'svc_x',
      '--from',
      'a@example.com',
      '--to',
      'me@example.org',
      '--webhook-url',
      'https://hooks.example.com/x',
      '--timeout',
      '30',
      '--target',
      'local',
      '--burst',
      '0',
      '--json',
    ]);
    expect(options).toEqual({
      url: 'https://api.example.com/prod',
      key: 'svc_x',
      from: 'a@example.com',
      to: 'me@example.org',
      webhookUrl: 'https://hooks.example.com/x',
      timeoutMs: 30_000,
      target: 'local',
      burst: 0,
      json: true,
    });
  });

  it('answers null for --help', () => {
    expect(parseOptions(['--help'])).toBeNull();
  });

  it.each([
    [[], '--url is required'],
    [['--url', 'http://127.0.0.1:3000'], '--key is required'],
    [['--url', 'not a url', '--key', 'k'], '--url is not a URL'],
    [['--url', 'ftp://x', '--key', 'k'], '--url must be http(s)'],
    [['--url', 'http://x', '--key', 'k', '--target', 'gcp'], '--target is local or aws'],
    [['--url', 'http://x', '--key', 'k', '--webhook-url', 'http://hooks.example.com'], '--webhook-url must be an https:// URL'],
    [['--url', 'http://x', '--key', 'k', '--timeout', '0'], '--timeout must be a positive number'],
    [['--url', 'http://x', '--key', 'k', '--burst=-1'], '--burst must be a non-negative number'],
    [['--url', 'http://x', '--key', 'k', '--burst', 'ten'], '--burst must be a non-negative number'],
    [['--url', 'http://x', '--key', 'k', '--from', 'Ann <a@example.com>'], '--from must be a bare address'],
    [['--url', 'http://x', '--key', 'k', '--colour'], "Unknown option '--colour'"],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.4.5.6', true],
    ['localhost', true],
    ['api.localhost', true],
    ['[::1]', true],
    ['10.0.0.1', false],
    ['abc.execute-api.us-east-1.amazonaws.com', false],
    ['localhost.example.com', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });
});
