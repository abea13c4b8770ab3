import { AppError, ForbiddenError, UnauthorizedError, ValidationError } from '../../../shared/domain/errors';
import { errorResponse } from '../../../shared/http/errors';
import { decodeCursor, encodeCursor } from '../../../shared/store/cursor';

describe('error envelope', () => {
  it('gives 401 only a message', () => {
    expect(errorResponse(new UnauthorizedError('nope'))).toEqual({ status: 401, body: { error: { message: 'nope' } } });
  });

  it('carries code, details, hint and upgrade_url', () => {
    const error = new AppError(429, 'plan_limit', 'limit', { details: { limit: 100 }, hint: 'upgrade', upgradeUrl: 'https://x/upgrade' });
    expect(errorResponse(error)).toEqual({
      status: 429,
      body: { error: { message: 'limit', code: 'plan_limit', details: { limit: 100 }, hint: 'upgrade', upgrade_url: 'https://x/upgrade' } },
    });
    expect(errorResponse(new ForbiddenError('f')).body.error.code).toBe('forbidden');
    expect(errorResponse(new ValidationError('v')).status).toBe(400);
  });

  it('hides unexpected errors behind internal_error', () => {
    const { status, body } = errorResponse(new Error('db password is hunter2'));
    expect(status).toBe(500);
    expect(body.error.code).toBe('internal_error');
    expect(JSON.stringify(body)).not.toContain('hunter2');
  });
});

describe('cursors', () => {
  it('round-trip and stay bound to their partition', () => {
    const cursor = encodeCursor({ PK: 'ACCOUNT#a', SK: 'APIKEY#k' })!;
    expect(decodeCursor(cursor, { PK: 'ACCOUNT#a' })).toEqual({ PK: 'ACCOUNT#a', SK: 'APIKEY#k' });
    expect(() => decodeCursor(cursor, { PK: 'ACCOUNT#b' })).toThrow(ValidationError);
    expect(() => decodeCursor('%%%garbage', { PK: 'ACCOUNT#a' })).toThrow(ValidationError);
    expect(decodeCursor(undefined, { PK: 'x' })).toBeUndefined();
  });
});
