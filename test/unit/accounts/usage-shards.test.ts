import { firstShardPlan, planShardParts, shardCaps, USAGE_SHARDS } from '#shared/domain/accounts/limits';

describe('shardCaps', () => {
  it.each([1, 5, 8, 100, 3000, 101])('splits a limit of %i into caps that add up to it exactly', (limit) => {
    const caps = shardCaps(limit);
    expect(caps.reduce((a, b) => a + b, 0)).toBe(limit);
    expect(caps.length).toBe(Math.min(USAGE_SHARDS, limit));
    expect(Math.max(...caps) - Math.min(...caps)).toBeLessThanOrEqual(1);
  });
});

describe('planShardParts', () => {
  it('takes all places from one shard with room for them, picked at random among those', () => {
    // Shards 1 and 2 have room for 3 (8 and 5 free), shard 0 has not (1 free).
    expect(planShardParts([10, 10, 10], [9, 2, 5], 3, () => 0)).toEqual([{ shard: 1, n: 3 }]);
    expect(planShardParts([10, 10, 10], [9, 2, 5], 3, () => 0.99)).toEqual([{ shard: 2, n: 3 }]);
  });

  it('spreads sends refused together over the shards with room instead of sending them all to the roomiest', () => {
    const picked = new Set(
      Array.from({ length: 50 }, (_, i) => planShardParts([13, 13, 13, 13], [13, 5, 6, 7], 1, () => i / 50)![0]!.shard),
    );
    expect([...picked].sort()).toEqual([1, 2, 3]);
  });

  it('spreads a multi-recipient send over shards when no single shard has room', () => {
    const parts = planShardParts([5, 5, 5], [4, 3, 4], 4)!;
    expect(parts.reduce((sum, p) => sum + p.n, 0)).toBe(4);
    expect(parts).toEqual([
      { shard: 1, n: 2 },
      { shard: 0, n: 1 },
      { shard: 2, n: 1 },
    ]);
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

describe('firstShardPlan', () => {
  it('picks one shard in range for all places when its cap holds them', () => {
    expect(firstShardPlan([3, 3, 2], 2, () => 0.99)).toEqual([{ shard: 2, n: 2 }]);
    expect(firstShardPlan([3, 3, 2], 2, () => 0)).toEqual([{ shard: 0, n: 2 }]);
  });

  it('spreads a send larger than the picked shard cap (the first send of the day included)', () => {
    // free plan: 100 a day over 8 shards of 12-13; a 50-recipient first send must not land on one shard.
    const parts = firstShardPlan(shardCaps(100), 50, () => 0.5)!;
    expect(parts.reduce((sum, p) => sum + p.n, 0)).toBe(50);
    for (const part of parts) expect(part.n).toBeLessThanOrEqual(shardCaps(100)[part.shard]!);
    expect(firstShardPlan(shardCaps(1), 1)).toEqual([{ shard: 0, n: 1 }]);
  });

  it('refuses without a write a send larger than the limit itself', () => {
    expect(firstShardPlan(shardCaps(1), 2)).toBeNull();
    expect(firstShardPlan(shardCaps(3), 5)).toBeNull();
    expect(firstShardPlan(shardCaps(100), 101)).toBeNull();
  });

  it('never plans a part beyond its shard cap', () => {
    for (const limit of [1, 2, 3, 5, 7, 8, 9, 12, 13, 16, 17, 50, 99, 100, 101, 3000]) {
      const caps = shardCaps(limit);
      for (const n of [1, 2, 7, 13, 50, limit]) {
        for (const r of [0, 0.3, 0.99]) {
          const parts = firstShardPlan(caps, n, () => r);
          if (n > limit) expect(parts).toBeNull();
          else {
            expect(parts!.reduce((sum, p) => sum + p.n, 0)).toBe(n);
            for (const part of parts!) expect(part.n).toBeLessThanOrEqual(caps[part.shard]!);
          }
        }
      }
    }
  });
});
