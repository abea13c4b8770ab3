/** What each floor issues per send, in order: the step names of its timings and of the report. */
import type { FloorName } from '../options';

export const floorSteps = (conditionCheck: boolean): Record<FloorName, string[]> => ({
  old: [
    'GetItem APIKEYHASH#<sha256> (consistent)',
    'GetItem ACCOUNT#<acc> (consistent)',
    'GetItem DOMAINNAME#<name> (consistent)',
    'GetItem DOMAIN#<dom> (consistent)',
    'BatchGetItem SUPPRESSION#<acc>#<to> (consistent, projection email)',
    'TransactWriteItems: Put EMAIL#<msg> + ADD usage PLAN DAY + ADD usage PLAN MONTH',
    'SQS SendMessage {email_id}',
  ],
  new: [
    'BatchGetItem (consistent): APIKEYHASH#<sha256>, ACCOUNT#<acc>, DOMAINNAME#<name>, SUPPRESSION#<acc>#<to>',
    `TransactWriteItems: Put EMAIL#<msg> (attribute_not_exists)${conditionCheck ? ' + ConditionCheck APIKEYHASH#<sha256> (attribute_exists)' : ''}`,
  ],
  'new-put': [
    'BatchGetItem (consistent): APIKEYHASH#<sha256>, ACCOUNT#<acc>, DOMAINNAME#<name>, SUPPRESSION#<acc>#<to>',
    'PutItem EMAIL#<msg> (attribute_not_exists)',
  ],
});
