/**
 * SES's account-level suppression list is off for both configuration sets (SuppressionOptions
 * SuppressedReasons []): it is shared by every customer and tenant of the one SES account, and the
 * service keeps its own lists per account and tenant (docs/suppressions.md, docs/local-cloud/ses.md).
 */
import { CONFIGURATION_SET } from '#infra/definitions';
import { tlsRequiredConfigurationSet } from '#shared/adapters/aws/ses-configuration-sets';
import { defaultStack, type Synthesised } from '../helpers';

let s: Synthesised;

beforeAll(() => {
  s = defaultStack();
});

afterAll(() => s.cleanup());

it('both configuration sets turn the account-level suppression list off', () => {
  const sets = s.template.findResources('AWS::SES::ConfigurationSet');
  const byName = Object.fromEntries(Object.values(sets).map((r) => [r.Properties.Name, r.Properties.SuppressionOptions]));
  expect(byName).toEqual({
    [CONFIGURATION_SET.name]: { SuppressedReasons: [] },
    [tlsRequiredConfigurationSet(CONFIGURATION_SET.name)]: { SuppressedReasons: [] },
  });
});
