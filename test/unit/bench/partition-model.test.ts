/** bench/lib/cost: item sizes, write units by partition from stream images, and the ceilings they give. */
import { itemSize } from '#bench/lib/cost/item-size';
import { partitionModel, partitionShape } from '#bench/lib/cost/partition-model';
import { writeUnitsOf, type IndexShape } from '#bench/lib/cost/partition-writes';

const INDEXES: IndexShape[] = [
  { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
  { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', projection: 'KEYS_ONLY' },
];
const S = (value: string) => ({ S: value });
const body = (bytes: number) => S('x'.repeat(bytes));

describe('item size (DynamoDB capacity rules)', () => {
  it('counts names and values: strings in UTF-8, numbers by digits, maps and lists with their overhead', () => {
    expect(itemSize({ a: S('héllo') })).toBe(1 + 6);
    expect(itemSize({ n: { N: '12345' } })).toBe(1 + 4);
    expect(itemSize({ m: { M: { k: S('v'), b: { BOOL: true } } } })).toBe(1 + 3 + (1 + 1 + 1) + (1 + 1 + 1));
    expect(itemSize({ l: { L: [S('ab'), { NULL: true }] } })).toBe(1 + 3 + (1 + 2) + (1 + 1));
  });
});

describe('write units of a stream record, by partition', () => {
  const email = {
    PK: S('EMAIL#msg_1'),
    SK: S('EMAIL'),
    GSI1PK: S('ACCOUNT#acc_1#EMAILS#0'),
    GSI1SK: S('msg_1'),
    GSI2PK: S('DUE#7'),
    GSI2SK: S('2026-11-25T10:00:00Z#EMAIL#msg_1'),
    status: S('queued'),
    body: body(2000),
  };

  it('an insert: the table and each index it enters (ALL: the whole item; KEYS_ONLY: its keys)', () => {
    expect(writeUnitsOf(undefined, email, INDEXES)).toEqual({
      'table\tEMAIL#msg_1': 3,
      'GSI1\tACCOUNT#acc_1#EMAILS#0': 3,
      'GSI2\tDUE#7': 1,
    });
  });

  it('an update: ALL rewritten when anything changed, a moved index key a delete and a put, an untouched KEYS_ONLY index nothing', () => {
    const claimed = { ...email, status: S('sending'), GSI2PK: S('DUE#9') };
    expect(writeUnitsOf(email, claimed, INDEXES)).toEqual({
      'table\tEMAIL#msg_1': 3,
      'GSI1\tACCOUNT#acc_1#EMAILS#0': 3,
      'GSI2\tDUE#7': 1,
      'GSI2\tDUE#9': 1,
    });
    const same = { ...email, status: S('sent') };
    expect(writeUnitsOf(email, same, INDEXES)).toEqual({ 'table\tEMAIL#msg_1': 3, 'GSI1\tACCOUNT#acc_1#EMAILS#0': 3 });
  });

  it('leaving an index is a delete on its old partition', () => {
    const { GSI2PK: _pk, GSI2SK: _sk, ...final } = email;
    expect(writeUnitsOf(email, final, INDEXES)['GSI2\tDUE#7']).toBe(1);
  });
});

describe('the partition model', () => {
  it('names the busiest key of each shape, scales the stream to the reported units, and gives the ceilings by scope', () => {
    const model = partitionModel({
      emails: 100,
      writes: {
        'GSI1\tACCOUNT#acc_01JD8Z6X4Q2T9V3N5M7K1H0G8F#EMAILS#0': 400,
        'table\tEMAIL#msg_01JD8Z6X4Q2T9V3N5M7K1H0G8F': 3,
        'GSI2\tDUE#1': 50,
        'GSI2\tDUE#2': 100,
      },
      // The index's transactions counted twice by DynamoDB: twice the stream's shares.
      meteredWrites: { GSI1: 800 },
      reads: { 'table\tACCOUNT#acc_01JD8Z6X4Q2T9V3N5M7K1H0G8F': 150, 'table\tDOMAINNAME#shop.example': 30 },
    });
    const account = model.rows.find((row) => row.shape === 'ACCOUNT#<acc>#EMAILS#<shard>')!;
    expect(account).toMatchObject({ where: 'GSI1', writesPerEmail: 8, scope: 'account' });
    expect(account.ceiling).toBeCloseTo(125, 6);
    const due = model.rows.find((row) => row.where === 'GSI2')!;
    expect(due).toMatchObject({ shape: 'DUE#<shard>', keys: 2, writesPerEmail: 1, ceiling: 1000, scope: 'service' });
    expect(model.rows.find((row) => row.shape === 'ACCOUNT#<acc>')!.ceiling).toBeCloseTo(2000, 6);
    expect(model.perAccount).toBeCloseTo(125, 6);
    expect(model.perDomain).toBeCloseTo(10_000, 6);
    expect(model.perTenant).toBe(Infinity);
    expect(model.rows.find((row) => row.shape.startsWith('EMAIL#'))!.scope).toBe('item');
  });

  it("counts an API key's item as the account's (an account commonly sends through one key)", () => {
    const hash = 'ab'.repeat(32);
    const model = partitionModel({ emails: 100, writes: {}, meteredWrites: {}, reads: { [`table\tAPIKEYHASH#${hash}`]: 100 } });
    expect(model.rows[0]).toMatchObject({ scope: 'account', readsPerEmail: 1 });
    expect(model.perAccount).toBeCloseTo(3000, 6);
  });

  it('shapes keys by kind', () => {
    expect(partitionShape('TENANT#ten_01JD8Z6X4Q2T9V3N5M7K1H0G8F#EMAILS#3')).toBe('TENANT#<ten>#EMAILS#<shard>');
    expect(partitionShape('DOMAINNAME#shop.example')).toBe('DOMAINNAME#<name>');
  });
});
