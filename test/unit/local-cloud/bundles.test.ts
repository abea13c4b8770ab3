/**
 * localstack/bundles.cjs: the local cloud's bundles hold every function the template deploys in their table
 * (localstack/cloud/lambda/bundled-functions.ts), so no function of the product is compiled by tsx at run time; an
 * entry the table lacks is still loaded, compiled by tsx.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { functionEntries as deployedFunctions } from '#infra/functions';
import { SMTP_RELAY } from '#infra/definitions';
import { bundles } from '../../../bin/run-bundled';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { functionEntries, functionTable } = require('#localstack/bundles.cjs') as {
  functionEntries: () => string[];
  functionTable: object;
};

test("the table holds every deployed function's entry and the relay task's", () => {
  const table = functionEntries();
  const deployed = [...deployedFunctions().map((fn) => fn.entry), SMTP_RELAY.entry];
  expect(deployed.length).toBeGreaterThan(30);
  expect(deployed.filter((entry) => !table.includes(entry))).toEqual([]);
  // Only entries: a handler or the relay's main, no helper module evaluated on its own.
  expect(table.filter((entry) => !/^functions\/.+\/(handler|main)\.ts$/.test(entry))).toEqual([]);
});

test("an entry the table lacks (a test template's own) is compiled from its source by tsx", async () => {
  const files = await bundles('test-function-table', { main: 'test/fixtures/bundled/load-function.ts' }, { plugins: [functionTable] });
  const { stdout } = await promisify(execFile)(process.execPath, [files.main!, 'test/fixtures/bundled/plain-function.ts']);
  expect(stdout.trim()).toBe('plain');
  expect(functionEntries()).not.toContain('test/fixtures/bundled/plain-function.ts');
});
