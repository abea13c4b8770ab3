/**
 * Structured JSON logs (one line each, CloudWatch-friendly). Never pass secrets: callers log ids, not
 * keys, bodies or headers.
 */
type Fields = Record<string, unknown>;

function write(level: 'info' | 'warn' | 'error', message: string, fields: Fields): void {
  if (process.env.LOG_LEVEL === 'silent') return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}

export const logInfo = (message: string, fields: Fields = {}) => write('info', message, fields);
export const logWarn = (message: string, fields: Fields = {}) => write('warn', message, fields);
export function logError(message: string, error: unknown, fields: Fields = {}): void {
  const err = error instanceof Error ? { error: error.name, error_message: error.message, stack: error.stack } : { error: String(error) };
  write('error', message, { ...fields, ...err });
}
