/**
 * `suppressions import`: the CSV's plan (header or not, columns by name, bad lines, duplicates, reasons the
 * API cannot set, batches per tenant and category) and the run against a recorded API (added / skipped /
 * refused, a 400 naming one address, a 404 tenant, a 429 retried).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCsv } from '#clients/cli/csv/csv';
import { planImport } from '#clients/cli/suppressions/import-plan';
import { fakeApi, run } from './harness';
import { temporaryDir } from '../../support/temporary-dirs';

const plan = (text: string, batchSize = 500) => {
  const { rows, bad } = readCsv(text);
  return planImport(rows, bad, batchSize);
};

describe('suppressions import plan', () => {
  it('reads columns by header name, in any order, ignoring the others', () => {
    const result = plan(
      'created_at,scope,Email,reason,tenant\n2026-01-01,account,A@Example.com,bounce,\n2026-01-01,tenant,b@example.com,manual,acme\n',
    );
    expect(result.batches).toEqual([
      { lines: [{ line: 2, email: 'a@example.com' }] },
      { tenant: 'acme', lines: [{ line: 3, email: 'b@example.com' }] },
    ]);
    expect(result.relabelled).toEqual({ bounce: 1 });
  });

  it('takes a file without a header as email,reason', () => {
    expect(plan('a@example.com,manual\nb@example.com\n').batches).toEqual([
      {
        lines: [
          { line: 1, email: 'a@example.com' },
          { line: 2, email: 'b@example.com' },
        ],
      },
    ]);
  });

  it('refuses bad lines with why, counts repeated addresses once, and splits batches by size and by category', () => {
    const result = plan(
      'email,reason,category\nnot-an-address,,\nx@example.com,spam,\ny@example.com,,weekly\n,,\nz@example.com,,\nZ@example.com,,\nw@example.com,,\nv@example.com,,product\n"broken,\n',
      2,
    );
    expect(result.refused.map((r) => [r.line, r.reason])).toEqual([
      [2, '"not-an-address" is not an email address'],
      [3, 'reason "spam" is not one of manual, bounce, complaint, unsubscribe'],
      [4, 'category "weekly" is not product or newsletter'],
      [5, 'no email address'],
      [10, 'a quoted field is not closed (a " is missing)'],
    ]);
    expect(result.duplicates).toBe(1);
    expect(result.batches).toEqual([
      {
        lines: [
          { line: 6, email: 'z@example.com' },
          { line: 8, email: 'w@example.com' },
        ],
      },
      { category: 'product', lines: [{ line: 9, email: 'v@example.com' }] },
    ]);
  });

  it('fails a header without an email column', () => {
    expect(() => plan('address,reason\na@example.com,manual\n')).toThrow('the header has no "email" column');
  });
});

describe('suppressions import run', () => {
  const dir = temporaryDir('cli-supp-');

  it('posts batches, counts added / skipped / refused, refuses an address the API names and sends the rest again, waits out a 429', async () => {
    const file = join(dir, 'list.csv');
    writeFileSync(
      file,
      'email,reason\na@example.com,manual\nb@example.com,bounce\nbad@example\nc@example.com,\nc@example.com,\nd@example.com,\n',
    );
    const api = fakeApi([
      () => ({ status: 429, body: { error: { message: 'slow down', code: 'rate_limited' } }, headers: { 'retry-after': '1' } }),
      () => ({
        status: 400,
        body: {
          error: {
            message: 'bad',
            code: 'validation_error',
            details: { fields: [{ field: 'emails.1', message: 'b@example.com is refused' }] },
          },
        },
      }),
      () => ({ status: 201, body: { suppressions: [], created: ['a@example.com', 'c@example.com'], existing: [] } }),
      () => ({ status: 200, body: { suppressions: [], created: [], existing: ['d@example.com'] } }),
    ]);
    const result = await run(['--json', 'suppressions', 'import', file, '--batch-size', '3'], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(api.requests.map((r) => r.body.emails)).toEqual([
      ['a@example.com', 'b@example.com', 'c@example.com'],
      ['a@example.com', 'b@example.com', 'c@example.com'],
      ['a@example.com', 'c@example.com'],
      ['d@example.com'],
    ]);
    // The 429 was retried, the 400 refused line 3 (b@) and the rest was posted again.
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ lines: 6, added: 2, skipped: 2, refused: 2, relabelled: { bounce: 1 } });
    expect(summary.refused_lines).toEqual([
      { line: 3, reason: 'b@example.com is refused' },
      { line: 4, reason: '"bad@example" is not an email address' },
    ]);
    expect(result.progress).toContain('suppressions: 3/4 lines (75%)');
    expect(result.progress).toContain('suppressions: 4/4 lines (100%)');
  });

  it('refuses the lines of a tenant the API does not know, and stops on a bad key with exit 1', async () => {
    const file = join(dir, 'tenant.csv');
    writeFileSync(file, 'email,tenant\na@example.com,ghost\n');
    const api = fakeApi([() => ({ status: 404, body: { error: { message: 'No tenant ghost', code: 'not_found' } } })]);
    const result = await run(['suppressions', 'import', file], { fetch: api.fetch });
    expect(result.stdout).toContain('1 lines: 0 added, 0 skipped (already listed or repeated), 1 refused');
    expect(result.stdout).toContain('line 2: No tenant ghost');
    const denied = fakeApi([() => ({ status: 401, body: { error: { message: 'Invalid API key' } } })]);
    const failed = await run(['suppressions', 'import', file], { fetch: denied.fetch });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('Error: Invalid API key (HTTP 401)');
  });
});
