/**
 * LOG_LEVEL (shared/lib/log.ts): which lines a process writes. The deployed functions run at `warn` (the LOG_LEVEL
 * setting), so normal operation writes no line per email; a process not told writes everything.
 */
import { DEFAULT_SETTINGS } from '#shared/config/settings';
import { logInfo, logMetric, logs, logWarn } from '#shared/lib/log';

describe('LOG_LEVEL', () => {
  test('each level writes its own lines and the more severe ones; silent none; unset or unknown is info', () => {
    const written = (setting: string | undefined) => (['info', 'warn', 'error'] as const).filter((level) => logs(level, setting));
    expect(written('info')).toEqual(['info', 'warn', 'error']);
    expect(written('warn')).toEqual(['warn', 'error']);
    expect(written('error')).toEqual(['error']);
    expect(written('silent')).toEqual([]);
    expect(written(undefined)).toEqual(['info', 'warn', 'error']);
    expect(written('verbose')).toEqual(['info', 'warn', 'error']);
  });

  test("the functions' setting is warn by default: an info line is not written, a warning is", () => {
    expect(DEFAULT_SETTINGS.LOG_LEVEL).toBe('warn');
    const before = process.env.LOG_LEVEL;
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      process.env.LOG_LEVEL = DEFAULT_SETTINGS.LOG_LEVEL;
      logInfo('send-email: batch', { records: 10 });
      logWarn('send-email: held', { email_id: 'msg_1' });
      expect(log.mock.calls.map(([line]) => JSON.parse(String(line)).level)).toEqual(['warn']);
    } finally {
      log.mockRestore();
      if (before === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = before;
    }
  });

  test('a line carrying a metric is written at warn and error too (an alarm reads it), never when silent', () => {
    const before = process.env.LOG_LEVEL;
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      for (const level of ['warn', 'error', 'silent']) {
        process.env.LOG_LEVEL = level;
        logMetric('dmarc: report stored', { DmarcReports: 1 });
      }
      expect(log.mock.calls.map(([line]) => JSON.parse(String(line)).DmarcReports)).toEqual([1, 1]);
    } finally {
      log.mockRestore();
      if (before === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = before;
    }
  });
});
