/**
 * Structured JSON logs (one line each, CloudWatch-friendly). Never pass secrets: callers log ids, not
 * keys, bodies or headers.
 *
 * LOG_LEVEL: `info` (everything; the default of a process that is not told), `warn` (warnings and errors: the
 * deployed functions' default, the LOG_LEVEL setting, so no line is written per email in normal operation and
 * CloudWatch Logs ingests only what needs a look), `error`, or `silent` (nothing). An unknown value is `info`.
 */
type Fields = Record<string, unknown>;
type Level = 'info' | 'warn' | 'error';

const RANK: Record<Level | 'silent', number> = { info: 0, warn: 1, error: 2, silent: 3 };

/** Whether a line of `level` is written under the process's LOG_LEVEL (read each time: tests and the local cloud change it). */
export function logs(level: Level, setting: string | undefined = process.env.LOG_LEVEL): boolean {
  const threshold = setting !== undefined && setting in RANK ? RANK[setting as keyof typeof RANK] : RANK.info;
  return RANK[level] >= threshold;
}

const line = (level: Level, message: string, fields: Fields) =>
  JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });

function write(level: Level, message: string, fields: Fields): void {
  if (!logs(level)) return;
  if (level === 'error') console.error(line(level, message, fields));
  else console.log(line(level, message, fields));
}

export const logInfo = (message: string, fields: Fields = {}) => write('info', message, fields);
/**
 * An info line that carries a CloudWatch metric (Embedded Metric Format `_aws` fields): written at every level but
 * `silent`, since the metric is data an alarm or a dashboard reads, not chatter (docs/deliverability.md's
 * DmarcReports). Keep such lines rare: one per report or per minute, never one per email.
 */
export function logMetric(message: string, fields: Fields): void {
  if (process.env.LOG_LEVEL !== 'silent') console.log(line('info', message, fields));
}
export const logWarn = (message: string, fields: Fields = {}) => write('warn', message, fields);
export function logError(message: string, error: unknown, fields: Fields = {}): void {
  const err = error instanceof Error ? { error: error.name, error_message: error.message, stack: error.stack } : { error: String(error) };
  write('error', message, { ...fields, ...err });
}
