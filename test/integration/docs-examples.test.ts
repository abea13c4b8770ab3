/**
 * The docs as a new user runs them (issue 28; the convention: docs/docs-examples.md): every shell block
 * of README.md and docs/ (and docs/local-cloud/), in order, one bash per page, on a fresh stack of this
 * test's own. A command fails the page when it exits non-zero, gets an HTTP error or prints an error
 * envelope the page does not show, or prints something other than the answer the page shows
 * (`# -> ...`). The pages run a few at a time, the README first (each makes its own account and names,
 * so none depends on another); when all are done the README's objects are checked again: no page may
 * break them.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { mapBounded } from '#shared/lib/concurrency';
import { spawnStack, type SpawnedStack } from './harness/spawn-stack';
import { addressRewriter, makeReaderDir, REPO_ROOT } from '../support/docs/reader-dir';
import { runCommand, runPage, type PageOptions, type PageRun } from '../support/docs/run-page';

const PAGES_AT_ONCE = 4;

const markdownIn = (dir: string) =>
  readdirSync(join(REPO_ROOT, dir))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `${dir}/${name}`);
const PAGES = ['README.md', ...markdownIn('docs'), ...markdownIn('docs/local-cloud')];

/** A reader's environment: their PATH and locale, nothing a page should set itself (KEY, API, DATA_DIR, ...). */
function readerEnvironment(): NodeJS.ProcessEnv {
  const keep = /^(HOME|USER|LOGNAME|LANG|LC_\w+|TZ|TMPDIR|SHELL|TERM|(https?|no)_proxy|(HTTPS?|NO)_PROXY)$/;
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => keep.test(name)));
  env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`;
  return env;
}

/** Runs every page in a reader's folder of its own, `PAGES_AT_ONCE` at a time, in order; each page's run as soon as it is done. */
function runPages(dataDir: string, options: Omit<PageOptions, 'dir'>, folders: string[]): Map<string, Promise<PageRun>> {
  const settle = new Map<string, (run: PageRun) => void>();
  const runs = new Map(PAGES.map((page) => [page, new Promise<PageRun>((resolve) => settle.set(page, resolve))]));
  void mapBounded(PAGES, PAGES_AT_ONCE, async (page) => {
    // The README's shell stays open: its variables name the objects checked at the end.
    const dir = makeReaderDir(dataDir);
    folders.push(dir);
    const run = await runPage(page, { ...options, dir, keepShell: page === 'README.md' }).catch(
      (error: Error): PageRun => ({ page, commands: 0, skipped: [], ms: 0, timings: [], failure: error.stack ?? error.message }),
    );
    settle.get(page)!(run);
  });
  return runs;
}

describe('the docs, run as written on a fresh stack', () => {
  let stack: SpawnedStack | undefined;
  let dataDir = '';
  const folders: string[] = [];
  let options: Omit<PageOptions, 'dir'>;
  let pages: Map<string, Promise<PageRun>>;
  let readme: PageRun | undefined;
  const started = Date.now();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mailservice-docs-data-'));
    // The default configuration a reader's `npm start` has, in memory and on free ports.
    stack = await spawnStack({ dataDir, inMemory: true, timeoutMs: 120_000, env: { LOCAL_TASK_PERIOD_MS: '' } });
    const info = JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8'));
    options = { env: readerEnvironment(), rewrite: addressRewriter(info) };
    pages = runPages(dataDir, options, folders);
  }, 300_000);

  afterAll(async () => {
    const runs = await Promise.all([...(pages?.values() ?? [])]);
    readme?.shell?.close();
    await stack?.stop();
    for (const folder of [...folders, dataDir].filter(Boolean)) rmSync(folder, { recursive: true, force: true });
    const lines = runs.map(
      (run) =>
        `${String(run.ms).padStart(7)} ms  ${String(run.commands).padStart(3)} commands  ${run.page}${run.skipped.length ? `  (${run.skipped.length} skipped)` : ''}`,
    );
    const slowest = runs
      .flatMap((run) => run.timings.map(([line, ms]) => ({ where: `${run.page}:${line}`, ms })))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 8)
      .map(({ where, ms }) => `${where} ${ms} ms`);
    console.log(`docs examples: ${Date.now() - started} ms in all\n${lines.join('\n')}\nslowest commands: ${slowest.join(', ')}`);
  }, 60_000);

  const fail = (run: PageRun) => {
    if (run.failure) throw new Error(run.failure);
  };

  test.each(PAGES)('%s', async (page) => fail(await pages.get(page)!), 300_000);

  test("no page broke the README's objects: its domain verifies again, sends from it are delivered, its tenant is as it left it", async () => {
    await Promise.all(pages.values());
    readme = await pages.get('README.md')!;
    expect(readme.commands).toBeGreaterThan(20);
    if (!readme.shell) throw new Error('the README did not run to its end (see its own test), so its objects cannot be checked');
    const checks = [
      `curl -s http://127.0.0.1:3000/domains/$DOMAIN_ID -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"action": "verify"}' | jq -c '{status: .domain.status, failing: [.domain.records[] | select(.status != "verified") | .purpose]}'   # -> {"status": "verified", "failing": []}`,
      `EMAIL_ID=$(curl -s http://127.0.0.1:3000/emails -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"from": "you@example.com", "to": "anyone@example.org", "subject": "Still here", "text": "Hi"}' | jq -r .id)`,
      `curl -s http://127.0.0.1:3000/emails/$EMAIL_ID -H "Authorization: Bearer $KEY"   # -> {"email": {"status": "delivered", ...}}`,
      `curl -s http://127.0.0.1:3000/tenants/customer-42 -H "Authorization: Bearer $KEY"   # -> {"tenant": {"status": "paused", ...}}`,
    ];
    for (const [index, text] of checks.entries()) {
      const answer = /\s#\s*->\s(.*)$/.exec(text)?.[1];
      const failure = await runCommand(readme.shell!, 'README.md, after every page', { line: index + 1, text, answer }, options);
      if (failure) throw new Error(failure);
    }
  }, 300_000);
});
