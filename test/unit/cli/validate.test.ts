/**
 * `mailservice validate` against a recorded API: addresses from the arguments and from a file (blank lines
 * and comments skipped) posted to POST /validations/batch 100 at a time, in order, with progress for a
 * file; the table and counts, or `{validations}` with --json; a short 429 waited out, a long one stopping
 * the run with what was done printed and exit 1; no addresses is a usage error (exit 2).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VALIDATIONS_PER_REQUEST } from '#clients/api/validations';
import { addressesOfFile } from '#clients/cli/validate/run-validation';
import { MAX_VALIDATIONS_PER_BATCH } from '#shared/domain/address-validation/schemas';
import { fakeApi, run, type Recorded } from './harness';
import { temporaryDir } from '../../support/temporary-dirs';

const checks = {
  syntax: { valid: true, problem: null, smtputf8: false },
  domain: { result: 'mx', hosts: ['mx.example.com'] },
  disposable: false,
  role: false,
  suppressed: { suppressed: false, reason: null },
};

/** The API's answer: valid, except info@ (risky role) and gmial.com (risky typo). */
const validationOf = (email: string) => {
  if (email.startsWith('info@'))
    return {
      object: 'validation',
      email,
      verdict: 'risky',
      score: 0.8,
      reasons: ['role_address'],
      suggestion: null,
      checks: { ...checks, role: true },
    };
  if (email.endsWith('@gmial.com'))
    return {
      object: 'validation',
      email,
      verdict: 'risky',
      score: 0.7,
      reasons: ['possible_typo'],
      suggestion: email.replace('gmial', 'gmail'),
      checks,
    };
  if (email.endsWith('@nowhere.example'))
    return {
      object: 'validation',
      email,
      verdict: 'invalid',
      score: 0.05,
      reasons: ['no_mail_host'],
      suggestion: null,
      checks: { ...checks, domain: { result: 'no_mail_host', hosts: [] } },
    };
  return { object: 'validation', email, verdict: 'valid', score: 1, reasons: [], suggestion: null, checks };
};
const answer = (request: Recorded) => ({ body: { validations: (request.body.emails as string[]).map(validationOf) } });

describe('mailservice validate', () => {
  const dir = temporaryDir('cli-validate-');

  it('asks for at most as many addresses a request as the API takes', () => {
    expect(VALIDATIONS_PER_REQUEST).toBe(MAX_VALIDATIONS_PER_BATCH);
  });

  it('posts the arguments to POST /validations/batch (with --tenant) and prints a table and the counts', async () => {
    const api = fakeApi([answer]);
    const result = await run(
      ['validate', 'jane@gmial.com', 'info@example.com', 'ann@example.com', 'jane@nowhere.example', '--tenant', 'acme'],
      { fetch: api.fetch },
    );
    expect(result.status).toBe(0);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({
      method: 'POST',
      body: { emails: ['jane@gmial.com', 'info@example.com', 'ann@example.com', 'jane@nowhere.example'], tenant: 'acme' },
    });
    expect(api.requests[0]!.url.pathname).toBe('/validations/batch');
    expect(result.stdout).toBe(
      [
        'EMAIL                 VERDICT  SCORE  REASONS        SUGGESTION',
        'jane@gmial.com        risky    0.7    possible_typo  jane@gmail.com',
        'info@example.com      risky    0.8    role_address   -',
        'ann@example.com       valid    1      -              -',
        'jane@nowhere.example  invalid  0.05   no_mail_host   -',
        '4 addresses: 1 valid, 2 risky, 1 invalid',
        '',
      ].join('\n'),
    );
    expect(result.progress).toBe('');
  });

  it('reads --file (one address a line, after the arguments), sends 100 a request in order with progress, and --json prints every validation', async () => {
    const file = join(dir, 'list.txt');
    const listed = Array.from({ length: 230 }, (_, i) => `person${i}@example.com`);
    writeFileSync(file, `# exported list\n${listed.slice(0, 120).join('\n')}\n\n  ${listed.slice(120).join('\r\n')}  \n`);
    const api = fakeApi([answer, answer, answer]);
    const result = await run(['--json', 'validate', 'first@example.com', '--file', file], { fetch: api.fetch });
    expect(result.status).toBe(0);
    const all = ['first@example.com', ...listed];
    expect(api.requests.map((request) => request.body.emails)).toEqual([all.slice(0, 100), all.slice(100, 200), all.slice(200)]);
    expect(api.requests[0]!.body).not.toHaveProperty('tenant');
    const printed = JSON.parse(result.stdout);
    expect(printed.validations.map((validation: { email: string }) => validation.email)).toEqual(all);
    expect(result.progress).toContain('validate: 100/231 addresses (43%) invalid 0, risky 0');
    expect(result.progress).toContain('validate: 231/231 addresses (100%)');
  });

  it('skips blank lines and comments and trims spaces in a file', () => {
    expect(addressesOfFile('# header\n a@example.com \r\n\n\t\nb@example.com\n#c@example.com\n')).toEqual([
      'a@example.com',
      'b@example.com',
    ]);
  });

  it('waits out a short 429 and tries the same addresses again', async () => {
    const api = fakeApi([
      () => ({ status: 429, body: { error: { message: 'Too many requests', code: 'rate_limited' } }, headers: { 'retry-after': '2' } }),
      answer,
    ]);
    writeFileSync(join(dir, 'one.txt'), 'bob@example.com\n');
    const result = await run(['validate', 'ann@example.com', '--file', join(dir, 'one.txt')], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(api.requests.map((request) => request.body.emails)).toEqual([
      ['ann@example.com', 'bob@example.com'],
      ['ann@example.com', 'bob@example.com'],
    ]);
    expect(result.progress).toContain('validate: 0/2 addresses (0%) rate limited: waiting 2 s');
    expect(result.stdout).toContain('2 addresses: 2 valid');
  });

  it('stops at the hourly allowance (a long 429): prints what was validated, says where it stopped, exits 1 with the API message', async () => {
    const file = join(dir, 'long.txt');
    writeFileSync(file, Array.from({ length: 150 }, (_, i) => `p${i}@example.com`).join('\n'));
    const limited = {
      status: 429,
      body: { error: { message: 'The hourly validation allowance is used up', code: 'rate_limited' } },
      headers: { 'retry-after': '1800' },
    };
    const api = fakeApi([answer, () => limited]);
    const result = await run(['validate', '--file', file], { fetch: api.fetch });
    expect(result.status).toBe(1);
    expect(api.requests).toHaveLength(2);
    expect(result.stdout).toContain('100 addresses: 100 valid');
    expect(result.stderr).toContain('Stopped after 100 of 150 addresses (those are above); the first not validated is p100@example.com.');
    expect(result.stderr).toContain('Error: The hourly validation allowance is used up (rate_limited, HTTP 429)');
    expect(result.stderr).toContain('Retry after 1800 s.');

    const json = await run(['--json', 'validate', '--file', file], { fetch: fakeApi([answer, () => limited]).fetch });
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout).validations).toHaveLength(100);
    expect(JSON.parse(json.stderr)).toEqual(limited.body);
  });

  it('a failure of the first request prints only the error', async () => {
    const api = fakeApi([() => ({ status: 403, body: { error: { message: 'This key lacks the scope', code: 'insufficient_scope' } } })]);
    const result = await run(['validate', 'ann@example.com'], { fetch: api.fetch });
    expect(result).toMatchObject({ status: 1, stdout: '' });
    expect(result.stderr).toBe('Error: This key lacks the scope (insufficient_scope, HTTP 403)\n');
  });

  it('without addresses, or with a file it cannot read, is a usage error (exit 2); an empty file fails (exit 1); nothing is sent', async () => {
    const api = fakeApi([]);
    const none = await run(['validate'], { fetch: api.fetch });
    expect(none).toMatchObject({ status: 2, stderr: expect.stringContaining('give the addresses to validate') });
    const missing = await run(['validate', '--file', join(dir, 'no-such-file.txt')], { fetch: api.fetch });
    expect(missing).toMatchObject({ status: 2, stderr: expect.stringContaining('cannot read it (ENOENT)') });
    writeFileSync(join(dir, 'empty.txt'), '# nothing\n\n');
    const empty = await run(['validate', '--file', join(dir, 'empty.txt')], { fetch: api.fetch });
    expect(empty).toMatchObject({ status: 1, stderr: expect.stringContaining('has no addresses') });
    expect(api.requests).toHaveLength(0);
  });
});
