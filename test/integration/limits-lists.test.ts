/**
 * A list page at Lambda's 6 MB response limit (docs/deploy.md, "AWS limits"): an automation's definition
 * may be 256 KB, so a page of 100 of them (the per-account cap) would be far over what a Lambda can
 * answer. The page ends where the next item would pass the budget (shared/adapters/store/paginate.ts,
 * maxPageBytes) with `has_more` and a cursor, and the pages together hold every automation once. Through
 * the local gateway, which refuses a result over 6,291,556 bytes as AWS does.
 */
import { LIST_ITEMS_BUDGET_BYTES, RESPONSE_BODY_BUDGET_BYTES, textPayloadBytes } from '#shared/domain/lambda-payload';
import { api, newAccount, type ApiResponse } from './harness/stack';

jest.setTimeout(180_000);

/** A definition of about 240 KB as JSON: three send steps of 80 KB of html each (each step's html may be 100 KB, a definition 256 KB). */
function largeDefinition(n: number) {
  const step = (key: string) => ({
    key,
    type: 'send_email',
    from: 'Acme <hello@example.com>',
    subject: `Step ${key}`,
    html: `<p>${'x'.repeat(80_000)}</p>`,
  });
  return { name: `Large ${n}`, trigger: { event: `large.${n}` }, steps: [step('a'), step('b'), step('c')] };
}

it('GET /automations pages by size as well as count: 30 definitions of 240 KB come in pages under the limit, each once', async () => {
  const account = await newAccount({ plan: 'scale' });
  const ids: string[] = [];
  for (let n = 0; n < 30; n++) {
    const created = await api('POST', '/automations', { key: account.key, body: largeDefinition(n) });
    expect([created.status, created.body.error]).toEqual([201, undefined]);
    ids.push(created.body.automation.id);
  }
  // 30 x 240 KB is about 7.3 MB of JSON: more than one answer can hold.
  expect(30 * JSON.stringify(largeDefinition(0)).length).toBeGreaterThan(RESPONSE_BODY_BUDGET_BYTES);

  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const response: ApiResponse = await api('GET', `/automations?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      key: account.key,
    });
    expect(response.status).toBe(200);
    expect(textPayloadBytes(response.text)).toBeLessThanOrEqual(RESPONSE_BODY_BUDGET_BYTES);
    const items = response.body.automations as { id: string }[];
    expect(items.length).toBeGreaterThan(0);
    // Each page is full up to the budget: one more item would not have fitted.
    if (response.body.has_more) expect(textPayloadBytes(JSON.stringify(items)) + 250_000 * 2).toBeGreaterThan(LIST_ITEMS_BUDGET_BYTES);
    seen.push(...items.map((item) => item.id));
    cursor = response.body.next_cursor;
    expect(cursor !== null).toBe(response.body.has_more);
    pages++;
  } while (cursor && pages < 10);
  expect(pages).toBeGreaterThanOrEqual(2);
  expect(seen.sort()).toEqual([...ids].sort());
});
