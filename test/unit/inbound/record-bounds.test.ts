/** Byte bounds on a received email's header-derived fields (shared/domain/inbound/record-bounds.ts). */
import { boundedList, clipUtf8, MAX_LIST_BYTES, MAX_VALUE_BYTES } from '#shared/domain/inbound/record-bounds';

describe('clipUtf8', () => {
  it('keeps a value within the bytes and cuts a longer one on a character boundary', () => {
    expect(clipUtf8('abc', 3)).toEqual({ value: 'abc', cut: false });
    // '€' is 3 bytes: 4 bytes hold one and a third; the partial character is dropped.
    expect(clipUtf8('€€', 4)).toEqual({ value: '€', cut: true });
    expect(clipUtf8('a\uFFFDb', 4)).toEqual({ value: 'a\uFFFD', cut: true });
  });
});

describe('boundedList', () => {
  it('clips entries, stops at the list budget and at the entry count, and says so', () => {
    const long = 'x'.repeat(MAX_VALUE_BYTES + 10);
    const clipped = boundedList([long], 100);
    expect(clipped).toEqual({ values: ['x'.repeat(MAX_VALUE_BYTES)], cut: true });

    const many = Array.from({ length: 100 }, () => 'y'.repeat(1000));
    const fitted = boundedList(many, 100);
    expect(fitted.cut).toBe(true);
    expect(fitted.values).toHaveLength(Math.floor(MAX_LIST_BYTES / 1000));

    expect(boundedList(['a', 'b', 'c'], 2)).toEqual({ values: ['a', 'b'], cut: true });
    expect(boundedList(['a', 'b'], 2)).toEqual({ values: ['a', 'b'], cut: false });
  });
});
