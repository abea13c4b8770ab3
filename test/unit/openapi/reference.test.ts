/**
 * The reference group (functions/api/reference): GET /openapi.json serves docs/openapi.json, GET
 * /reference renders it as an accessible page with no script and nothing from elsewhere.
 */
import { readFileSync } from 'node:fs';
import { createReferenceApp } from '#functions/api/reference/app';
import { OPENAPI_FILE } from '#functions/api/openapi';

const app = createReferenceApp();
const served = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as {
  tags: { name: string }[];
  paths: Record<string, Record<string, { operationId: string }>>;
  components: { schemas: Record<string, unknown> };
};

test('GET /openapi.json is docs/openapi.json, readable from any origin', async () => {
  const response = await app.request('/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(await response.json()).toEqual(served);
});

describe('GET /reference', () => {
  let html: string;
  let response: Response;
  beforeAll(async () => {
    response = await app.request('/reference');
    html = await response.text();
  });

  test('is an HTML page whose policy allows nothing but its own inline style', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('script-src');
    expect(html).not.toMatch(/<script|<link |<img |<iframe/i);
    // Every URL of the page is a fragment of the page or the document itself.
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);
    expect(hrefs.filter((href) => !href.startsWith('#') && href !== '/openapi.json')).toEqual([]);
  });

  test('is accessible: a language, one h1, a heading per tag, each operation titled by method and path, tables with headers', () => {
    expect(html).toMatch(/<html lang="en">/);
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    for (const tag of served.tags) expect(html).toContain(`>${tag.name.replace(/&/g, '&amp;')}</h2>`);
    for (const [path, item] of Object.entries(served.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const article = html.slice(html.indexOf(`id="op-${operation.operationId}"`));
        expect(article).toMatch(
          new RegExp(
            `^[^]*?<h3[^>]*><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${path.replace(/[{}]/g, '\\$&')}</code>`,
          ),
        );
      }
    }
    expect(html).not.toMatch(/<table(?![^>]*>[\s\S]*?<th scope=)/);
  });

  test('links every schema reference to its section, and every section exists', () => {
    const targets = new Set([...html.matchAll(/href="#([^"]+)"/g)].map((match) => match[1]!));
    for (const target of targets) expect(html).toContain(`id="${target}"`);
    for (const name of Object.keys(served.components.schemas)) expect(html).toContain(`id="schema-${name}"`);
  });

  test('shows parameters, request bodies, answers, error codes and examples', () => {
    const send = html.slice(html.indexOf('id="op-sendEmail"'), html.indexOf('</article>', html.indexOf('id="op-sendEmail"')));
    expect(send).toContain('Idempotency-Key');
    expect(send).toContain('<code>htmlBody</code>');
    expect(send).toContain('Alias of <code>html</code>');
    expect(send).toContain('domain_not_verified');
    expect(send).toContain('<summary>Example</summary>');
    expect(send).toContain('<code>emails:send</code>');
  });
});
