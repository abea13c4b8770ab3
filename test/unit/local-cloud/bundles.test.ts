/**
 * localstack/bundles.cjs: the local cloud's bundles hold every function the template deploys in their table
 * (localstack/cloud/bundled-functions.ts), so no function of the product is compiled by tsx at run time.
 */
import { functionEntries as deployedFunctions } from '../../../infra/functions';
import { SMTP_RELAY } from '../../../infra/definitions';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { functionEntries } = require('../../../localstack/bundles.cjs') as { functionEntries: () => string[] };

test("the table holds every deployed function's entry and the relay task's", () => {
  const table = functionEntries();
  const deployed = [...deployedFunctions().map((fn) => fn.entry), SMTP_RELAY.entry];
  expect(deployed.length).toBeGreaterThan(30);
  expect(deployed.filter((entry) => !table.includes(entry))).toEqual([]);
  // Only entries: a handler or the relay's main, no helper module evaluated on its own.
  expect(table.filter((entry) => !/^functions\/.+\/(handler|main)\.ts$/.test(entry))).toEqual([]);
});
