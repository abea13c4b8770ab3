/**
 * docs/architecture.md is the overview a newcomer reads in about ten minutes (issue 48): short, and the way
 * into every page of the reference (docs/reference/), each of which leads back to it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const DOCS = resolve(__dirname, '..', '..', '..', 'docs');
const overview = readFileSync(join(DOCS, 'architecture.md'), 'utf8');
const referencePages = readdirSync(join(DOCS, 'reference')).filter((name) => name.endsWith('.md'));

test('the overview stays short: at most 3,500 words (ten minutes at a reading pace of 350 a minute)', () => {
  const words = overview.split(/\s+/).filter(Boolean).length;
  expect(words).toBeGreaterThan(1000);
  expect(words).toBeLessThanOrEqual(3500);
});

test('the overview links every page of the reference, and each page links back', () => {
  expect(referencePages.length).toBeGreaterThanOrEqual(8);
  expect(referencePages.filter((page) => !overview.includes(`](reference/${page}`))).toEqual([]);
  expect(referencePages.filter((page) => !readFileSync(join(DOCS, 'reference', page), 'utf8').includes('](../architecture.md'))).toEqual(
    [],
  );
});

test('the overview walks one send and one received message through the folders, and says where to add each kind of thing', () => {
  for (const heading of [
    '## Layers',
    '## One send through the folders',
    '## One inbound message through the folders',
    '## Where to add an endpoint',
    '## Where to add a worker',
    '## Where to add a queue',
    '## Where to add an event type',
  ]) {
    expect(overview).toContain(`\n${heading}\n`);
  }
});
