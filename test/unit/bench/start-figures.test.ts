import { startFigures } from '#bench/lib/start-figures';

describe("a client's start figures (bench:cli)", () => {
  it('takes the median and the slowest wall time, and the median of the CPU figures read', () => {
    const figures = startFigures([
      { wallMs: 120, cpuMs: 90 },
      { wallMs: 300, cpuMs: Number.NaN },
      { wallMs: 100, cpuMs: 80 },
      { wallMs: 110, cpuMs: 100 },
    ]);
    expect(figures).toEqual({ runs: 4, wall: { median: 115, max: 300 }, cpu: { median: 90 } });
  });

  it('an odd count takes the middle run', () => {
    expect(
      startFigures([
        { wallMs: 3, cpuMs: 3 },
        { wallMs: 1, cpuMs: 1 },
        { wallMs: 2, cpuMs: 2 },
      ]).wall.median,
    ).toBe(2);
  });

  it('no runs: no figure, never zero', () => {
    const figures = startFigures([]);
    expect(figures.wall.median).toBeNaN();
    expect(figures.cpu.median).toBeNaN();
  });
});
