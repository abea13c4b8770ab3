/**
 * CHANGELOG.md keeps its promises to an operator: Keep a Changelog's shape (an Unreleased section with its
 * upgrade steps), every context value it names is one the stack reads (`cdk deploy -c <name>=...`), every
 * `admin ...` command it names is in the admin CLI's usage, and every link points at a heading that exists.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SETTINGS } from '#infra/definitions';
import { settingContextKey } from '#infra/constructs/util';
import { TABLE_INDEXES_CONTEXT } from '#infra/constructs/data';
import { SES_RATE_CONTEXT, WORKER_CONCURRENCY_CONTEXT } from '#infra/worker-concurrency';
import { RELAY_MAX_TASKS_CONTEXT } from '#infra/relay-scaling';
import { TABLE_WARM_READS_CONTEXT, TABLE_WARM_WRITES_CONTEXT } from '#infra/table-warm-throughput';
import { TABLE_CAPACITY_CONTEXT, TABLE_READ_CAPACITY_CONTEXT, TABLE_WRITE_CAPACITY_CONTEXT } from '#infra/table-capacity';

const ROOT = resolve(__dirname, '..', '..', '..');
const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

test("it has Keep a Changelog's shape, with the upgrade steps under Unreleased", () => {
  expect(changelog.startsWith('# Changelog\n')).toBe(true);
  const sections = [...changelog.matchAll(/^(##+) (.+)$/gm)].map((match) => `${match[1]} ${match[2]}`);
  expect(sections.slice(0, 2)).toEqual(['## [Unreleased]', '### Upgrade steps']);
  const steps = changelog.split('### Upgrade steps')[1]!.split('\n### ')[0]!;
  // Each step is dated and says what to do.
  const items = steps.split('\n- ').slice(1);
  expect(items.length).toBeGreaterThanOrEqual(3);
  for (const item of items) expect(item).toMatch(/^\*\*\d{4}-\d{2}-\d{2}, .+\*\*/);
});

test('every context value it names is one the stack reads', () => {
  const contexts = new Set([
    ...Object.keys(SETTINGS).map(settingContextKey),
    TABLE_INDEXES_CONTEXT,
    WORKER_CONCURRENCY_CONTEXT,
    SES_RATE_CONTEXT,
    RELAY_MAX_TASKS_CONTEXT,
    TABLE_WARM_WRITES_CONTEXT,
    TABLE_WARM_READS_CONTEXT,
    TABLE_CAPACITY_CONTEXT,
    TABLE_WRITE_CAPACITY_CONTEXT,
    TABLE_READ_CAPACITY_CONTEXT,
    'sandboxDomain',
    'stackName',
    'smtpTlsSecretArn',
  ]);
  const named = [...changelog.matchAll(/-c (\w+)=/g), ...changelog.matchAll(/`([a-z]+(?:[A-Z][a-z0-9]*)+)`/g)].map((match) => match[1]!);
  expect(named).toEqual(expect.arrayContaining(['tableIndexes', 'workerConcurrency', 'oidcClientSecretSealed']));
  expect(named.filter((name) => !contexts.has(name))).toEqual([]);
});

test("every admin command it names is in the admin CLI's usage", () => {
  const usage = execFileSync(process.execPath, [join(ROOT, 'localstack', 'admin.cjs'), '--help'], { cwd: ROOT, encoding: 'utf8' });
  const commands = [...changelog.matchAll(/admin(?: --)? ((?:[a-z-]+ )?[a-z-]+)(?= |`)/g)].map((match) => match[1]!.trim());
  expect(commands).toEqual(expect.arrayContaining(['data adopt-legacy', 'oidc seal-secret']));
  for (const command of commands) expect(usage).toContain(`admin ${command}`);
});

test('every link points at a page and a heading that exist', () => {
  const links = [...changelog.matchAll(/\]\(([^)#\s]+\.md)(?:#([^)\s]+))?\)/g)];
  expect(links.length).toBeGreaterThan(5);
  const broken = links.flatMap(([, page, anchor]) => {
    const text = readFileSync(join(ROOT, page!), 'utf8');
    const anchors = new Set([...text.matchAll(/^#+ (.+)$/gm)].map((match) => slug(match[1]!)));
    return anchor && !anchors.has(anchor) ? [`${page}#${anchor}`] : [];
  });
  expect(broken).toEqual([]);
});
