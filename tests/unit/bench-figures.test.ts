/**
 * The bench's figures for one contender (scripts/bench/load.ts): a round's CPU per request over
 * its whole round, and the quietest slice beside it, which another tenant's work cannot lower.
 */
import { describe, expect, it } from 'vitest';
import { cpuRatio, mediansOf, roundCpuRatios, roundFigures, type Slice } from '../../scripts/bench/load.ts';

/** A slice of `requests` answered with `cpu` seconds of the contender's CPU in `seconds`. */
const slice = (requests: number, cpu: number, seconds = 1): Slice => ({
  requests,
  seconds,
  cpu,
  latencies: new Float64Array([0.2, 0.3]),
  non2xx: 0,
  errors: 0,
});

describe('a bench round', () => {
  it('counts the whole round for CPU per request, and the quietest slice with what the round left between slices', () => {
    // 30 µs, 20 µs and 40 µs a request in its slices; 0.06 s more CPU between them (2 µs a request).
    const round = roundFigures([slice(10_000, 0.3), slice(10_000, 0.2), slice(10_000, 0.4)], 0.96);
    expect(round.cpuUs).toBeCloseTo(32, 6);
    expect(round.quietestCpuUs).toBeCloseTo(22, 6);
    expect(round.rps).toBe(10_000);
  });

  it('takes the quietest slice of all the rounds, and the median of the rounds for the rest', () => {
    const rounds = [
      roundFigures([slice(10_000, 0.3), slice(10_000, 0.35)], 0.65),
      roundFigures([slice(10_000, 0.25), slice(10_000, 0.5)], 0.75),
      roundFigures([slice(10_000, 0.4), slice(10_000, 0.45)], 0.85),
    ];
    const medians = mediansOf('server', rounds);
    expect(medians.cpuUs).toBeCloseTo(37.5, 6);
    expect(medians.cpuUsByRound.map((us) => Math.round(us * 10) / 10)).toEqual([32.5, 37.5, 42.5]);
    expect(medians.quietestCpuUs).toBeCloseTo(25, 6);
  });

  it('has no quietest slice when the contender’s processes are unknown', () => {
    expect(roundFigures([slice(10_000, NaN)], NaN).quietestCpuUs).toBeNaN();
  });

  it('gives the median of the rounds’ own ratios, each between contenders measured side by side', () => {
    // The machine slowed both in the second round: the rounds' ratios are 1.1, 1.1 and 1.5, while
    // the medians of each (30 µs against 20 µs) would make it 1.5.
    const rounds = (cpu: number[]) => cpu.map((c) => roundFigures([slice(10_000, c)], c));
    const server = mediansOf('server', rounds([0.22, 0.66, 0.3]));
    const baseline = mediansOf('baseline', rounds([0.2, 0.6, 0.2]));
    expect(server.cpuUs / baseline.cpuUs).toBeCloseTo(1.5, 6);
    expect(roundCpuRatios(server, baseline).map((r) => Math.round(r * 100) / 100)).toEqual([1.1, 1.1, 1.5]);
    expect(cpuRatio(server, baseline)).toBeCloseTo(1.1, 6);
  });
});
