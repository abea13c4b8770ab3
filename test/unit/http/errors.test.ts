import { AppError, ForbiddenError, UnauthorizedError, ValidationError } from '#shared/domain/errors';
import { errorResponse, MAX_ANSWERED_FIELDS } from '#shared/doors/http/errors';
import { parseWith } from '#shared/domain/request-validation';
import * as z from 'zod';
import { decodeCursor, encodeCursor } from '#shared/adapters/store/cursor';

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

  it('answers at most 100 field problems, with their total, and names ten in the message (a body of 100,000 bad items)', () => {
    let error: unknown;
    try {
      parseWith(z.object({ resources: z.array(z.string()) }), { resources: Array.from({ length: 100_000 }, () => 1) });
    } catch (caught) {
      error = caught;
    }
    const { status, body } = errorResponse(error);
    expect(status).toBe(400);
    const details = body.error.details as { fields: { field: string }[]; fields_total: number };
    expect(details.fields).toHaveLength(MAX_ANSWERED_FIELDS);
    expect(details.fields_total).toBeGreaterThanOrEqual(100_000);
    expect(details.fields[0]).toMatchObject({ field: 'resources.0' });
    expect(body.error.message).toMatch(/^Invalid request body: check resources\.0, resources\.1, .*resources\.9 and [\d,]+ more\.$/);
    expect(JSON.stringify(body).length).toBeLessThan(20_000);
    // A short list is answered whole, without a total.
    const few = errorResponse(new ValidationError('v', { details: { fields: [{ field: 'to', message: 'bad' }] } })).body.error.details;
    expect(few).toEqual({ fields: [{ field: 'to', message: 'bad' }] });
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
