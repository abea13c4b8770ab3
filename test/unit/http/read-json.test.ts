/**
 * readJson (shared/doors/http/request-validation.ts): a body nested deeper than any operation takes is refused before a
 * schema sees it, naming the top-level field that holds the nesting; a body at the limit is read.
 */
import { Hono } from 'hono';
import { MAX_BODY_DEPTH } from '#shared/domain/bounds';
import { errorResponse } from '#shared/doors/http/errors';
import { readJson } from '#shared/doors/http/request-validation';

const app = new Hono();
app.post('/', async (c) => c.json({ read: typeof (await readJson(c)) }));
app.onError((error, c) => {
  const { status, body } = errorResponse(error);
  return c.json(body, status as 400);
});

const post = async (text: string) => {
  const response = await app.request('/', { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
  return { status: response.status, body: (await response.json()) as any };
};

const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('readJson', () => {
  it(`reads a body nested ${MAX_BODY_DEPTH} levels`, async () => {
    expect(await post(arrays(MAX_BODY_DEPTH))).toEqual({ status: 200, body: { read: 'object' } });
    expect(await post(`{"a":1,"metadata":${arrays(MAX_BODY_DEPTH - 1)}}`)).toEqual({ status: 200, body: { read: 'object' } });
  });

  it('refuses one level more, naming the field that holds it', async () => {
    const answer = await post(`{"a":1,"metadata":{"x":${arrays(MAX_BODY_DEPTH - 1)}}}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('validation_error');
    expect(answer.body.error.details.fields).toEqual([
      { field: 'metadata', message: `metadata is nested more than ${MAX_BODY_DEPTH} levels deep` },
    ]);
  });

  it('refuses a body nested 500,000 levels (deeper than any recursion survives), at its first item', async () => {
    const answer = await post(arrays(500_000));
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.fields[0].field).toBe('0');
  });
});
