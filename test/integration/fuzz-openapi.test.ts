/**
 * A fuzzer driven by docs/openapi.json (fast-check): every operation an API key can call, and the public
 * ones (links, the document and its reference page), gets hostile path ids, query values and headers,
 * each body field wrong in turn (types, sizes, depth, control characters, removal), unknown fields,
 * broken, deep and huge bodies. Every answer must be documented for its operation, carry the error
 * envelope when it is a 4xx, match the document's schema when it is a 2xx, and none may be a 5xx or no
 * answer at all. Afterwards the stack must still be healthy. The dashboard's session doors are left to
 * their own tests: they share the sign-in throttle per client address with every other test.
 *
 * Seeded: the seed is printed; FUZZ_SEED=<seed> replays the same draws. FUZZ_RUNS=<n> (default 2) is
 * the number of draws per property (docs/reliability.md, "Hostile input"); FUZZ_CONCURRENCY (default 4).
 */
import fc from 'fast-check';
import { ContractChecker } from '../support/openapi-contract';
import { createFixtures, type FuzzFixtures } from '../support/fuzz/fixtures';
import { closeFuzzClient, headerOf, send, type FuzzAnswer, type FuzzRequest } from '../support/fuzz/http';
import { excerpt } from '../support/fuzz/hostile';
import { fuzzOperations, loadDocument, type FuzzOperation } from '../support/fuzz/operations';
import { planFor, type FuzzProperty } from '../support/fuzz/plan';
import { api, newAccount, stack, waitForStatus } from './harness/stack';
import { loadConfig } from '#shared/config/config';
import { mapBounded } from '#shared/lib/concurrency';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 2));
const CONCURRENCY = Math.max(1, Number(process.env.FUZZ_CONCURRENCY ?? 4));
/** Most time one property may take, shrinking a failure included (fast-check stops it there). */
const PROPERTY_BUDGET_MS = 30_000 + RUNS * 2_000;

const document = loadDocument();
const checker = new ContractChecker(document);

/** What the fuzzer drives: API-key and public operations, not the dashboard's session doors and sign-in. */
const operations = fuzzOperations(document).filter(
  (operation) => operation.caller === 'apiKey' || (operation.caller === 'public' && !operation.path.startsWith('/dashboard/')),
);

interface Finding {
  property: string;
  request: string;
  answer: string;
  problems: string[];
  replay: string;
}

class ContractBreach extends Error {
  constructor(
    readonly request: FuzzRequest,
    readonly answer: FuzzAnswer,
    readonly problems: string[],
  ) {
    super(problems.join('; '));
  }
}

const stats = { requests: 0, statuses: new Map<number, number>(), slowest: { ms: 0, what: '' } };

/** Problems with one answer: none when it is documented, enveloped, valid and not a 5xx. */
function judge(request: FuzzRequest, answer: FuzzAnswer): string[] {
  if (answer.status === -1) return []; // node:http would not send it: nothing reached the server
  if (answer.status === 0) return [`no HTTP answer: ${answer.error}`];
  const problems = answer.status >= 500 ? [`a ${answer.status}`] : [];
  return [
    ...problems,
    ...checker.check(
      { method: request.method, url: request.path },
      { status: answer.status, header: (name) => headerOf(answer, name), text: answer.text },
    ),
  ];
}

async function fire(request: FuzzRequest): Promise<FuzzAnswer> {
  const answer = await send(stack().apiUrl, request);
  stats.requests++;
  stats.statuses.set(answer.status, (stats.statuses.get(answer.status) ?? 0) + 1);
  if (answer.ms > stats.slowest.ms)
    stats.slowest = { ms: answer.ms, what: `${request.method} ${excerpt(request.path, 60)} (${request.label})` };
  return answer;
}

/** A stable per-property seed, so FUZZ_SEED replays one property whatever ran before it. */
function seedOf(property: FuzzProperty): number {
  let hash = SEED | 0;
  for (const char of `${property.operation.id} ${property.name}`) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

const timings: { name: string; ms: number; requests: number }[] = [];

async function check(property: FuzzProperty): Promise<Finding[]> {
  const started = Date.now();
  const before = stats.requests;
  try {
    return await checkProperty(property);
  } finally {
    timings.push({ name: `${property.operation.id} ${property.name}`, ms: Date.now() - started, requests: stats.requests - before });
  }
}

async function checkProperty(property: FuzzProperty): Promise<Finding[]> {
  const seed = seedOf(property);
  const findings: Finding[] = [];
  for (const example of property.examples) {
    const answer = await fire(example);
    const problems = judge(example, answer);
    if (problems.length) findings.push(findingOf(property, example, answer, problems, `(an example: always sent)`));
  }
  const details = await fc.check(
    fc.asyncProperty(property.arbitrary, async (request) => {
      const answer = await fire(request);
      const problems = judge(request, answer);
      if (problems.length) throw new ContractBreach(request, answer, problems);
    }),
    { seed, numRuns: property.numRuns, plugins: [fc.interruptAfterTimeLimit(PROPERTY_BUDGET_MS)] },
  );
  if (details.failed) {
    const breach = details.errorInstance instanceof ContractBreach ? details.errorInstance : null;
    const replay = `FUZZ_SEED=${SEED} (property seed ${seed}, path ${details.counterexamplePath})`;
    if (breach) findings.push(findingOf(property, breach.request, breach.answer, breach.problems, replay));
    else
      findings.push({
        property: `${property.operation.id} ${property.name}`,
        request: '-',
        answer: '-',
        problems: [String(details.errorInstance ?? 'failed')],
        replay,
      });
  }
  return findings;
}

function findingOf(property: FuzzProperty, request: FuzzRequest, answer: FuzzAnswer, problems: string[], replay: string): Finding {
  const body = request.body === undefined ? '' : ` body ${excerpt(request.body.toString(), 200)}`;
  return {
    property: `${property.operation.id} ${property.name}`,
    request: `${request.method} ${excerpt(request.path, 200)} [${request.label}]${body}`,
    answer: `${answer.status} ${excerpt(answer.text, 300)}${answer.error ? ` (${answer.error})` : ''}`,
    problems: problems.map((problem) => (problem.length > 800 ? `${problem.slice(0, 800)}…` : problem)),
    replay,
  };
}

let fixtures: FuzzFixtures;

beforeAll(async () => {
  // eslint-disable-next-line no-console
  console.log(`fuzz-openapi: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} (replay with FUZZ_SEED=${SEED})`);
  const started = Date.now();
  fixtures = await createFixtures();
  // eslint-disable-next-line no-console
  console.log(`fuzz-openapi: fixtures in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}, 180_000);

afterAll(() => closeFuzzClient());

describe('the OpenAPI fuzzer', () => {
  it(
    `answers hostile requests to every operation within the document (seed ${SEED})`,
    async () => {
      const started = Date.now();
      const byMethod = (operation: FuzzOperation) => (operation.method === 'DELETE' ? 1 : 0);
      // Deletions last: until then every operation finds the fixtures it names.
      const ordered = [...operations].sort((a, b) => byMethod(a) - byMethod(b));
      const properties = ordered.map((operation) => planFor(document, operation, fixtures, { runs: RUNS }));
      const findings: Finding[] = [];
      for (const phase of [0, 1]) {
        const batch = properties.filter((_, i) => byMethod(ordered[i]!) === phase).flat();
        findings.push(...(await mapBounded(batch, CONCURRENCY, check)).flat());
      }
      const statuses = [...stats.statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}: ${count}`)
        .join(', ');
      // eslint-disable-next-line no-console
      console.log(
        `fuzz-openapi: ${operations.length} operations, ${properties.flat().length} properties, ${stats.requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${SEED}, runs ${RUNS}); statuses ${statuses}; slowest ${stats.slowest.ms} ms: ${stats.slowest.what}`,
      );
      if (process.env.FUZZ_VERBOSE) {
        const slowest = timings
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 25)
          .map((t) => `  ${t.ms} ms, ${t.requests} requests: ${t.name}`);
        // eslint-disable-next-line no-console
        console.log(`fuzz-openapi: slowest properties\n${slowest.join('\n')}`);
      }
      expect(findings).toEqual([]);
      expect(operations.filter((operation) => operation.caller === 'apiKey').length).toBeGreaterThan(60);
    },
    15 * 60_000,
  );

  it('refuses the inputs that were 5xx with a 400 naming the field (issue 28 and this fuzzer)', async () => {
    const key = fixtures.account.key;
    const nested = JSON.parse(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`);
    const send = { from: `Fuzz <fuzz@${loadConfig(process.env).sandboxDomain}>`, to: fixtures.account.email, subject: 's', text: 't' };
    const cases: [string, string, unknown, string][] = [
      ['POST', '/emails/test', { event: 'email.delivered', email_id: 'x'.repeat(200_000) }, 'email_id'],
      ['POST', '/tenants', { external_id: `fuzz-deep-${SEED}`, metadata: nested }, 'metadata'],
      ['PATCH', `/tenants/${fixtures.pathValues.tenant}`, { metadata: nested }, 'metadata'],
      // Found by this fuzzer: what the document client cannot marshal, and keys DynamoDB refuses.
      ['PATCH', `/tenants/${fixtures.pathValues.tenant}`, { metadata: { plan: 1.2345678901234568e22 } }, 'metadata'],
      ['PATCH', `/tenants/${fixtures.pathValues.tenant}`, { metadata: { plan: -5e-324 } }, 'metadata'],
      ['PATCH', `/tenants/${fixtures.pathValues.tenant}`, { metadata: { '': 1 } }, 'metadata'],
      // The fixture automation is triggered by user.signed_up: its run item would hold the data.
      ['POST', '/events', { name: 'user.signed_up', user_id: 'fuzz-regression', data: { constructor: 1 } }, 'data'],
      ['POST', '/events', { name: 'user.signed_up', user_id: 'fuzz-regression', data: { n: 1e300 } }, 'data'],
      ['POST', '/emails', { ...send, headers: { constructor: 'x' } }, 'headers.constructor'],
      ['POST', '/emails', { ...send, tenant: '\u0000' }, 'tenant'],
      [
        'POST',
        '/emails',
        { ...send, headers: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`X-H${i}`, 'v'.repeat(500)])) },
        'headers',
      ],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await api(method, path, { key, body });
      expect({
        status: response.status,
        code: response.body?.error?.code,
        fields: response.body?.error?.details?.fields?.map((f: { field: string }) => f.field),
      }).toEqual({
        status: 400,
        code: 'validation_error',
        fields: [field],
      });
    }
    // 100,000 wrong items, a problem each: a 12 MB answer past API Gateway's limit (a 500) before the
    // envelope answered the first 100 with their total.
    const many = await api('POST', '/migrations', {
      key,
      body: { provider: 'sendgrid', api_key: 'SG.fuzz', resources: Array.from({ length: 100_000 }, () => 1) },
    });
    expect({
      status: many.status,
      code: many.body?.error?.code,
      answered: many.body?.error?.details?.fields?.length,
      total: many.body?.error?.details?.fields_total,
    }).toEqual({
      status: 400,
      code: 'validation_error',
      answered: 100,
      total: 100_000,
    });
  });

  it('refuses a large email to a suppressed address as it refuses a small one (it was a 503)', async () => {
    const account = await newAccount();
    expect((await api('POST', '/suppressions', { key: account.key, body: { emails: [account.email] } })).status).toBe(201);
    const from = `Fuzz <fuzz@${loadConfig(process.env).sandboxDomain}>`;
    for (const html of ['<p>small</p>', `<p>${'x'.repeat(1_000_000)}</p>`]) {
      const response = await api('POST', '/emails', {
        key: account.key,
        body: { from, to: account.email, subject: 'to a suppressed address', html },
      });
      expect({ status: response.status, code: response.body?.error?.code, suppressed: response.body?.error?.details?.suppressed }).toEqual({
        status: 422,
        code: 'validation_error',
        suppressed: [account.email],
      });
      // Kept as a failed email, its body with it (in the blob store when large).
      expect((await api('GET', `/emails/${response.body.error.details.email_id}`, { key: account.key })).body.email.status).toBe('failed');
    }
  });

  it('answers a request line over the 16 KB header limit with 431 and the envelope', async () => {
    const answer = await send(stack().apiUrl, {
      method: 'GET',
      path: `/emails/${'a'.repeat(20_000)}`,
      headers: { authorization: `Bearer ${fixtures.account.key}` },
      label: 'long request line',
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  });

  it('leaves the stack healthy: GET /health is 200 and a normal send is delivered', async () => {
    const health = await send(stack().apiUrl, { method: 'GET', path: '/health', headers: {}, label: 'health' });
    expect(health.status).toBe(200);
    const account = await newAccount();
    const sandbox = loadConfig(process.env).sandboxDomain;
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `Fuzz <fuzz@${sandbox}>`, to: account.email, subject: 'after the fuzzer', text: 'still here' },
    });
    expect(sent.status).toBe(200);
    await waitForStatus(account, sent.body.id, 'delivered', 60_000);
  }, 90_000);
});
