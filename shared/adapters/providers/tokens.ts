/**
 * Page tokens the adapters hand out (opaque to the import, at most 2 KB): a plain offset, or a small
 * JSON object in base64url when a position needs more than a number. A token that does not parse is a
 * caller bug (it was not made here), so it throws a plain Error, not a ProviderError.
 */

export const MAX_TOKEN_LENGTH = 2048;

/** The offset a token stands for; 0 for the first page (null). */
export function offsetOf(token: string | null): number {
  if (token === null) return 0;
  if (!/^\d{1,9}$/.test(token)) throw new Error('Invalid page token.');
  return Number(token);
}

export function offsetToken(offset: number): string {
  return String(offset);
}

export function objectToken(value: Record<string, unknown>): string {
  const token = Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  if (token.length > MAX_TOKEN_LENGTH) throw new Error('Page token longer than 2 KB.');
  return token;
}

export function parseObjectToken(token: string): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new Error('Invalid page token.');
}
