/** The category opt-out record: its public id and its public shape. */
import { derivedOptOutId, newOptOutId, toPublicCategoryOptOut, type CategoryOptOut } from '#shared/domain/suppressions/model';
import { ulid } from '#shared/domain/ids';

const ID = /^cop_[0-9A-HJKMNP-TV-Z]{26}$/;

describe('category opt-out ids', () => {
  it('are cop_ and a ULID of the given time, unique', () => {
    const at = Date.parse('2026-05-01T12:00:00.000Z');
    const ids = Array.from({ length: 50 }, () => newOptOutId(at));
    for (const id of ids) {
      expect(id).toMatch(ID);
      expect(id.slice(4, 14)).toBe(ulid(at).slice(0, 10));
    }
    expect(new Set(ids).size).toBe(50);
    expect(newOptOutId(at + 1) > newOptOutId(at)).toBe(true);
  });

  it('records written before ids existed read with a stable id derived from their key and time', () => {
    const at = '2026-05-01T12:00:00.000Z';
    const one = derivedOptOutId(at, 'OPTOUT#acc_1#a@x.io/ACCOUNT#CATEGORY#product');
    expect(one).toMatch(ID);
    expect(one.slice(4, 14)).toBe(ulid(Date.parse(at)).slice(0, 10));
    expect(derivedOptOutId(at, 'OPTOUT#acc_1#a@x.io/ACCOUNT#CATEGORY#product')).toBe(one);
    expect(derivedOptOutId(at, 'OPTOUT#acc_1#a@x.io/ACCOUNT#CATEGORY#newsletter')).not.toBe(one);
    expect(derivedOptOutId('not a time', 'k')).toMatch(ID);
  });
});

describe('toPublicCategoryOptOut', () => {
  const optOut: CategoryOptOut = {
    id: 'cop_01J0000000000000000000000',
    account_id: 'acc_1',
    tenant: 'ten_1',
    email: 'a@x.io',
    category: 'product',
    created_at: '2026-05-01T12:00:00.000Z',
  };

  it('shows the list by the tenant external_id, never the account or tenant ids', () => {
    expect(toPublicCategoryOptOut(optOut, 'acme')).toStrictEqual({
      object: 'category_opt_out',
      id: optOut.id,
      email: 'a@x.io',
      category: 'product',
      tenant: 'acme',
      created_at: optOut.created_at,
    });
    expect(toPublicCategoryOptOut({ ...optOut, tenant: null }, null).tenant).toBeNull();
  });
});
