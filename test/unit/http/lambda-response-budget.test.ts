/**
 * The frame's net under Lambda's 6 MB response limit (shared/doors/http/lambda-response-budget.ts): an answer
 * measured as Lambda measures it (JSON-escaped text, base64 binary) over the budget becomes the error
 * envelope; an answer under it is untouched. Driven through a real frame (createFrame) and its app.fetch.
 */
import { createFrame } from '#shared/doors/http/create-api';
import { jsonPayloadBytes, RESPONSE_BODY_BUDGET_BYTES } from '#shared/domain/lambda-payload';
import { bodyPayloadBytes } from '#shared/doors/http/lambda-response-budget';

const app = createFrame();
let payload: unknown;
app.get('/json', (c) => c.json(payload as object));
app.get('/binary', (c) => {
  c.header('content-type', 'application/octet-stream');
  c.header('content-disposition', 'attachment; filename="x.bin"');
  return c.body(new Uint8Array(payload as number));
});

describe('responseWithinLambdaLimit', () => {
  it('passes a JSON answer just under the budget, as Lambda would count it', async () => {
    payload = { text: 'a'.repeat(RESPONSE_BODY_BUDGET_BYTES - 100) };
    expect(jsonPayloadBytes(payload)).toBeLessThanOrEqual(RESPONSE_BODY_BUDGET_BYTES);
    const response = await app.request('/json');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { text: string }).text.length).toBe(RESPONSE_BODY_BUDGET_BYTES - 100);
  });

  it('answers the envelope for a JSON answer whose second escaping takes it over (2 MB of quotes: 4 MB of JSON, 8 MB of payload)', async () => {
    payload = { text: '"'.repeat(2 * 1024 * 1024) };
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThan(RESPONSE_BODY_BUDGET_BYTES);
    const response = await app.request('/json');
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string; details: Record<string, unknown> } };
    expect(body.error.code).toBe('internal_error');
    expect(body.error.message).toMatch(/larger than an API response can be/);
    expect(body.error.details).toMatchObject({ reason: 'response_too_large', limit_bytes: RESPONSE_BODY_BUDGET_BYTES });
    expect(body.error.details.payload_bytes).toBe(jsonPayloadBytes(payload));
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('counts a binary answer as base64 and drops its download headers when refusing it', async () => {
    payload = 4_700_000; // 6,266,668 bytes of base64
    expect(bodyPayloadBytes(Buffer.alloc(4_700_000), 'application/octet-stream')).toBeGreaterThan(RESPONSE_BODY_BUDGET_BYTES);
    const response = await app.request('/binary');
    expect(response.status).toBe(500);
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/application\/json/);

    payload = 4_000_000;
    const fits = await app.request('/binary');
    expect(fits.status).toBe(200);
    expect((await fits.arrayBuffer()).byteLength).toBe(4_000_000);
  });
});
