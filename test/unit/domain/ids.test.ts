import { deterministicId, isId, newId, timeOfId, ulid } from '#shared/domain/ids';

describe('ids', () => {
  it('are prefixed 26-character ULIDs', () => {
    const id = newId('msg');
    expect(id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isId('msg', id)).toBe(true);
    expect(isId('key', id)).toBe(false);
  });

  it('sort by creation time', () => {
    const earlier = ulid(1_700_000_000_000);
    const later = ulid(1_700_000_000_001);
    expect(earlier < later).toBe(true);
    expect(ulid(0).slice(0, 10)).toBe('0000000000');
  });

  it('are unique within one millisecond', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => ulid(1)));
    expect(ids.size).toBe(10_000);
  });
});

describe('timeOfId', () => {
  it('reads back the creation time of any prefixed id, and 0 for what is not one', () => {
    const at = Date.parse('2026-11-23T10:00:00.123Z');
    expect(timeOfId(newId('msg', at))).toBe(at);
    expect(timeOfId(newId('auto', at))).toBe(at);
    expect(timeOfId(deterministicId('cop', at, 'seed'))).toBe(at);
    expect(timeOfId('msg_!!!')).toBe(0);
  });
});
