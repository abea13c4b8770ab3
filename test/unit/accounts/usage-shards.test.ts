import { planShardParts, randomShardPart, shardCaps, USAGE_SHARDS } from '../../../shared/domain/accounts/limits';

describe('shardCaps', () => {
  it.each([1, 5, 8, 100, 3000, 101])('splits a limit of %i into caps that add up to it exactly', (limit) => {
    const caps = shardCaps(limit);
    expect(caps.reduce((a, b) => a + b, 0)).toBe(limit);
    expect(caps.length).toBe(Math.min(USAGE_SHARDS, limit));
    expect(Math.max(...caps) - Math.min(...caps)).toBeLessThanOrEqual(1);
  });
});

describe('planShardParts', () => {
  it('takes all places from the roomiest shard when it can', () => {
    expect(planShardParts([10, 10, 10], [9, 2, 5], 3)).toEqual([{ shard: 1, n: 3 }]);
  });

  it('spreads a multi-recipient send over shards when no single shard has room', () => {
    const parts = planShardParts([5, 5, 5], [4, 3, 4], 4)!;
    expect(parts.reduce((sum, p) => sum + p.n, 0)).toBe(4);
    expect(parts).toEqual([{ shard: 1, n: 2 }, { shard: 0, n: 1 }, { shard: 2, n: 1 }]);
  });

  it('refuses when the shards together lack room, even by one place', () => {
    expect(planShardParts([5, 5], [5, 4], 2)).toBeNull();
    expect(planShardParts([5, 5], [5, 4], 1)).toEqual([{ shard: 1, n: 1 }]);
  });

  it('never plans beyond a cap', () => {
    for (let trial = 0; trial < 200; trial++) {
      const caps = shardCaps(1 + Math.floor(Math.random() * 200));
      const counts = caps.map((cap) => Math.floor(Math.random() * (cap + 1)));
      const n = 1 + Math.floor(Math.random() * 50);
      const parts = planShardParts(caps, counts, n);
      const free = caps.reduce((sum, cap, i) => sum + cap - counts[i]!, 0);
      if (free < n) expect(parts).toBeNull();
      else for (const part of parts!) expect(counts[part.shard]! + part.n).toBeLessThanOrEqual(caps[part.shard]!);
    }
  });
});

describe('randomShardPart', () => {
  it('picks one shard in range for all places', () => {
    expect(randomShardPart([3, 3, 2], 2, () => 0.99)).toEqual([{ shard: 2, n: 2 }]);
    expect(randomShardPart([3, 3, 2], 2, () => 0)).toEqual([{ shard: 0, n: 2 }]);
  });
});
