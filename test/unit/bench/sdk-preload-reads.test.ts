/**
 * The read units the SDK preload adds for a BatchGetItem's keys that found no item (bench/lib/sdk-preload.cjs,
 * missingReadUnits): DynamoDB bills each as a GetItem of a missing item, DynamoDB Local's BatchGetItem reports
 * nothing for them. Returned and unprocessed keys are not counted; consistent reads count 1, eventual 0.5.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { missingReadUnits } = require('#bench/lib/sdk-preload.cjs') as {
  missingReadUnits(input: unknown, output: unknown): Map<string, { keys: unknown[]; each: number }>;
};

describe('the read units of missing BatchGetItem keys', () => {
  it('counts the keys neither returned nor unprocessed, by table, at the read mode minimum', () => {
    const key = (pk: string) => ({ PK: pk, SK: 'X' });
    const wire = (pk: string) => ({ PK: { S: pk }, SK: { S: 'X' } });
    const missing = missingReadUnits(
      {
        RequestItems: {
          main: { Keys: [key('found'), key('gone-1'), key('later'), key('gone-2')], ConsistentRead: true },
          other: { Keys: [wire('gone-3')] },
        },
      },
      { Responses: { main: [{ ...key('found'), v: 1 }] }, UnprocessedKeys: { main: { Keys: [key('later')] } } },
    );
    expect(missing.get('main')).toEqual({ keys: [key('gone-1'), key('gone-2')], each: 1 });
    expect(missing.get('other')).toEqual({ keys: [wire('gone-3')], each: 0.5 });
  });

  it('counts nothing when every key was returned', () => {
    expect(
      missingReadUnits({ RequestItems: { main: { Keys: [{ PK: 'a', SK: 'b' }] } } }, { Responses: { main: [{ PK: 'a', SK: 'b' }] } }).size,
    ).toBe(0);
  });
});
