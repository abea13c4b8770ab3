/** itemOfRefusedWrite (shared/adapters/store/table.ts): the item a conditional write refused with ALL_OLD answers, as a plain object. */
import { itemOfRefusedWrite } from '#shared/adapters/store/table';

describe('the item of a refused write', () => {
  it('unmarshalls the wire form the document client leaves on the error (as DynamoDB Local answers it)', () => {
    const error = Object.assign(new Error('The conditional request failed'), {
      name: 'ConditionalCheckFailedException',
      Item: {
        PK: { S: 'SUPPRESSION#acc#a@example.com' },
        reason: { S: 'bounce' },
        n: { N: '3' },
        imported_by: { M: { migration: { S: 'mig_1' }, list: { S: 'bounces' } } },
      },
    });
    expect(itemOfRefusedWrite(error)).toEqual({
      PK: 'SUPPRESSION#acc#a@example.com',
      reason: 'bounce',
      n: 3,
      imported_by: { migration: 'mig_1', list: 'bounces' },
    });
  });

  it('passes an already plain item through, and answers null when the error carries none', () => {
    expect(itemOfRefusedWrite({ Item: { PK: 'X', reason: 'bounce' } })).toEqual({ PK: 'X', reason: 'bounce' });
    expect(itemOfRefusedWrite(new Error('other'))).toBeNull();
    expect(itemOfRefusedWrite(null)).toBeNull();
  });
});
