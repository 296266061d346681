import { PredictionsError } from '../../src/predictions/predictions.errors';
import {
  brierDecomposition,
  computePerformance,
  forecastPoints,
  forecastWeights,
  parseForecastInput,
  scoreQuestion,
  wilsonInterval,
  utcMonthIndex,
  type ResolvedQuestion,
} from '../../src/predictions/predictions-scoring';

// The scoring rules of docs/predictions.md ("Forecasts and scoring") on hand-computed cases. Pure:
// no database, no clock.

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);
let nextId = 1;

/** A question with one forecast made at T0, closing ten days later and resolving at `resolvedAt`. */
function single(p: number, outcome: 0 | 1, market = 0.5, category: string | null = null, resolvedAt = T0 + 10 * DAY): ResolvedQuestion {
  return {
    marketId: nextId++,
    category,
    outcome,
    closesAt: T0 + 10 * DAY,
    resolvedAt,
    forecasts: [{ p, marketPrice: market, madeAt: T0, supersededAt: null }],
  };
}

/** `count` questions at p, of which `yes` resolved YES. */
function many(count: number, yes: number, p: number, market = 0.5, category: string | null = null): ResolvedQuestion[] {
  return Array.from({ length: count }, (_, i) => single(p, i < yes ? 1 : 0, market, category));
}

describe('parseForecastInput', () => {
  it.each([
    ['0.62', 0.62, 'probability'],
    ['.62', 0.62, 'probability'],
    [' 0.62 ', 0.62, 'probability'],
    ['0.12345', 0.1235, 'probability'], // rounded to 4 decimals, half away from zero
    ['62%', 0.62, 'percent'],
    ['62 %', 0.62, 'percent'],
    ['62.5%', 0.625, 'percent'],
    ['0.5%', 0.005, 'percent'],
    ['62', 0.62, 'percent'], // a bare number above 1 and below 100 is a percentage
    ['99.99', 0.9999, 'percent'],
    ['3:2', 0.6, 'odds'], // 3 for YES against 2
    ['3/2', 0.6, 'odds'],
    ['3 to 2', 0.6, 'odds'],
    ['1 TO 3', 0.25, 'odds'],
    ['1 : 3', 0.25, 'odds'],
    ['1.5:1', 0.6, 'odds'],
    ['1:2', 0.3333, 'odds'],
  ] as const)('reads %p as %p (%s)', (text, p, form) => {
    expect(parseForecastInput(text)).toEqual({ p, form });
  });

  it.each([
    ['', /Enter a probability/],
    ['   ', /Enter a probability/],
    ['0', /between 0.0001 and 0.9999/],
    ['1', /not a probability/],
    ['100', /not a probability/],
    ['150', /not a probability/],
    ['100%', /between 0.0001 and 0.9999/],
    ['0%', /between 0.0001 and 0.9999/],
    ['0.00004', /between 0.0001 and 0.9999/], // rounds to 0
    ['0.99996', /between 0.0001 and 0.9999/], // rounds to 1
    ['99.999', /between 0.0001 and 0.9999/],
    ['-0.5', /is not a probability, a percentage or odds/],
    ['0,62', /is not a probability, a percentage or odds/],
    ['1e-3', /is not a probability, a percentage or odds/],
    ['abc', /is not a probability, a percentage or odds/],
    ['62%%', /is not a probability, a percentage or odds/],
    ['3:2:1', /is not a probability, a percentage or odds/],
    ['0:1', /must be above 0/],
    ['3:0', /must be above 0/],
    ['0:0', /must be above 0/],
    ['1:99999', /between 0.0001 and 0.9999/],
    ['0.'.padEnd(41, '1'), /at most 40 characters/],
  ])('refuses %p', (text, message) => {
    let error: unknown;
    try {
      parseForecastInput(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PredictionsError);
    expect(error).toMatchObject({ code: 'invalid_prediction', field: 'prediction', message: expect.stringMatching(message) });
  });

  it('refuses what is not a string', () => {
    expect(() => parseForecastInput(undefined as unknown as string)).toThrow(PredictionsError);
  });
});

describe('wilsonInterval', () => {
  it.each([
    // k, n, low, high (published values of the 95 % Wilson interval)
    [8, 10, 0.4902, 0.9433],
    [5, 10, 0.2366, 0.7634],
    [0, 10, 0, 0.2775],
    [10, 10, 0.7225, 1],
    [1, 1, 0.2065, 1],
    [50, 100, 0.4038, 0.5962],
  ])('k=%p n=%p -> [%p, %p]', (k, n, low, high) => {
    const interval = wilsonInterval(k, n);
    expect(interval?.low).toBeCloseTo(low, 4);
    expect(interval?.high).toBeCloseTo(high, 4);
  });

  it('is null with no trial, refuses k outside 0..n, and widens with z', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    const z95 = wilsonInterval(8, 10) as { low: number; high: number };
    const z99 = wilsonInterval(8, 10, 2.576) as { low: number; high: number };
    expect(z99.low).toBeLessThan(z95.low);
    expect(z99.high).toBeGreaterThan(z95.high);
  });
});

describe('forecastPoints', () => {
  it('is 100 × ((m − o)² − (p − o)²), exact to 4 decimals', () => {
    expect(forecastPoints(0.8, 0.5, 1)).toBe(21); // 100 × (0.25 − 0.04)
    expect(forecastPoints(0.8, 0.5, 0)).toBe(-39); // 100 × (0.25 − 0.64)
    expect(forecastPoints(0.5, 0.5, 1)).toBe(0);
    // 100 × (0.148225 − 0.1444) = 0.3825 exactly (in floating point 0.3824999999999995)
    expect(forecastPoints(0.62, 0.615, 1)).toBe(0.3825);
    expect(forecastPoints(0.0001, 0.9999, 0)).toBe(99.98); // 100 × (0.99980001 − 0.00000001)
    // 100 × (0.0123² − 0.0124²) = −0.000247 -> −0.0002; 100 × (0.0013² − 0.0012²) = 0.000025 -> 0
    expect(forecastPoints(0.0124, 0.0123, 0)).toBe(-0.0002);
    expect(forecastPoints(0.0012, 0.0013, 0)).toBe(0);
    expect(Object.is(forecastPoints(0.3, 0.3, 1), 0)).toBe(true);
  });
});

describe('time-weighted question scores', () => {
  const closesAt = T0 + 10 * DAY;
  const edited: ResolvedQuestion = {
    marketId: 1,
    category: 'Politics',
    outcome: 1,
    closesAt,
    resolvedAt: closesAt + DAY,
    forecasts: [
      { p: 0.6, marketPrice: 0.5, madeAt: T0, supersededAt: T0 + 2 * DAY },
      { p: 0.8, marketPrice: 0.7, madeAt: T0 + 2 * DAY, supersededAt: null },
    ],
  };

  it('weighs each forecast by the time it covered up to the close', () => {
    expect(forecastWeights(edited.forecasts, closesAt)).toEqual([2 * DAY, 8 * DAY]);
    const score = scoreQuestion(edited);
    expect(score.p).toBeCloseTo(0.76, 12); // (2 × 0.6 + 8 × 0.8) / 10
    expect(score.m).toBeCloseTo(0.66, 12); // (2 × 0.5 + 8 × 0.7) / 10
    expect(score.brier).toBeCloseTo(0.0576, 12);
    expect(score.marketBrier).toBeCloseTo(0.1156, 12);
    expect(score.log).toBeCloseTo(Math.log(0.76), 12);
    expect(score.marketLog).toBeCloseTo(Math.log(0.66), 12);
    expect(score.correct).toBe(true);
    // rows: 100 × (0.25 − 0.16) = 9 and 100 × (0.09 − 0.04) = 5; weighted (2 × 9 + 8 × 5) / 10
    expect(score.points).toBeCloseTo(5.8, 12);
  });

  it('gives no weight to time after the close, after a withdrawal, or to a row replaced at once', () => {
    const forecasts = [
      { p: 0.3, marketPrice: 0.4, madeAt: T0, supersededAt: T0 }, // replaced the same instant
      { p: 0.2, marketPrice: 0.4, madeAt: T0, supersededAt: T0 + 4 * DAY }, // withdrawn after 4 days
      { p: 0.9, marketPrice: 0.4, madeAt: T0 + 12 * DAY, supersededAt: null }, // after the close
    ];
    expect(forecastWeights(forecasts, closesAt)).toEqual([0, 4 * DAY, 0]);
    const score = scoreQuestion({ ...edited, outcome: 0, forecasts });
    expect(score.p).toBeCloseTo(0.2, 12);
    expect(score.m).toBeCloseTo(0.4, 12);
    expect(score.points).toBe(forecastPoints(0.2, 0.4, 0)); // 100 × (0.16 − 0.04) = 12
  });

  it('takes the last row alone when no row covered any time', () => {
    const forecasts = [
      { p: 0.3, marketPrice: 0.4, madeAt: closesAt, supersededAt: closesAt + DAY },
      { p: 0.7, marketPrice: 0.6, madeAt: closesAt + DAY, supersededAt: null },
    ];
    expect(forecastWeights(forecasts, closesAt)).toEqual([0, 1]);
    expect(scoreQuestion({ ...edited, forecasts }).p).toBe(0.7);
  });

  it('counts p = 0.5 as correct on neither outcome, and clamps a market price of 0 or 1 for the log score', () => {
    expect(scoreQuestion(single(0.5, 1)).correct).toBe(false);
    expect(scoreQuestion(single(0.5, 0)).correct).toBe(false);
    expect(scoreQuestion(single(0.4, 0)).correct).toBe(true);
    const certain = scoreQuestion(single(0.9, 0, 1));
    expect(certain.marketBrier).toBe(1);
    expect(certain.marketLog).toBeCloseTo(Math.log(0.0001), 9);
  });
});

describe('computePerformance', () => {
  it('is empty with no question: ten empty bins, null scores', () => {
    const view = computePerformance([]);
    expect(view).toMatchObject({ totalPredictions: 0, correctPredictions: 0, accuracy: null, brierScore: null, logScore: null, decomposition: null, totalPoints: 0 });
    expect(view.market).toEqual({ brier: null, log: null });
    expect(view.skill).toEqual({ brier: null, log: null });
    expect(view.calibration.map((b) => [b.from, b.to, b.count, b.low])).toEqual(Array.from({ length: 10 }, (_, k) => [k / 10, (k + 1) / 10, 0, null]));
    expect(view).not.toHaveProperty('lastCalculated');
  });

  it('scores a perfectly calibrated forecaster: zero reliability, Brier = uncertainty − resolution', () => {
    // 10 questions at 0.2 of which 2 resolved YES, 10 at 0.8 of which 8 did; the market said 0.5 throughout.
    const view = computePerformance([...many(10, 2, 0.2), ...many(10, 8, 0.8)]);
    expect(view.totalPredictions).toBe(20);
    expect(view.correctPredictions).toBe(16);
    expect(view.accuracy).toBe(0.8);
    expect(view.brierScore).toBe(0.16); // (10 × (2 × 0.64 + 8 × 0.04)) × 2 / 20
    expect(view.logScore).toBeCloseTo(0.2 * Math.log(0.2) + 0.8 * Math.log(0.8), 6); // −0.500402
    expect(view.decomposition).toEqual({ reliability: 0, resolution: 0.09, uncertainty: 0.25 });
    const bin2 = view.calibration[2];
    expect(bin2).toEqual({ from: 0.2, to: 0.3, count: 10, meanForecast: 0.2, observedRate: 0.2, low: 0.0567, high: 0.5098 });
    expect(view.calibration[8]).toEqual({ from: 0.8, to: 0.9, count: 10, meanForecast: 0.8, observedRate: 0.8, low: 0.4902, high: 0.9433 });
    expect(view.calibration.filter((b) => b.count === 0)).toHaveLength(8);
    // The market at 0.5: Brier 0.25, log ln 0.5; the user beat it.
    expect(view.market).toEqual({ brier: 0.25, log: -0.693147 });
    expect(view.skill.brier).toBe(0.09);
    expect(view.skill.log).toBeCloseTo(-0.500402 + 0.693147, 6);
    // points: at 0.2, 8 × 21 (NO) + 2 × −39 (YES) = 90; the same at 0.8
    expect(view.totalPoints).toBe(180);
  });

  it('scores an overconfident forecaster: reliability shows the gap, the calibrated market beats them', () => {
    // Says 0.9 where 6 of 10 happen and 0.1 where 4 of 10 happen; the market said 0.6 and 0.4.
    const view = computePerformance([...many(10, 6, 0.9, 0.6), ...many(10, 4, 0.1, 0.4)]);
    expect(view.accuracy).toBe(0.6);
    expect(view.brierScore).toBe(0.33);
    expect(view.decomposition).toEqual({ reliability: 0.09, resolution: 0.01, uncertainty: 0.25 });
    expect(view.calibration[9]).toMatchObject({ from: 0.9, to: 1, count: 10, meanForecast: 0.9, observedRate: 0.6 });
    expect(view.calibration[1]).toMatchObject({ count: 10, meanForecast: 0.1, observedRate: 0.4 });
    // The interval of the 0.9 bin (6 of 10) excludes 0.9: the miscalibration is significant.
    expect(view.calibration[9].high as number).toBeLessThan(0.9);
    expect(view.market.brier).toBe(0.24);
    expect(view.skill.brier).toBe(-0.09);
    expect(view.skill.log as number).toBeLessThan(0);
    // at 0.9 vs 0.6: 6 × 15 (YES) + 4 × −45 (NO) = −90; the same mirrored at 0.1 vs 0.4
    expect(view.totalPoints).toBe(-180);
  });

  it('keeps the decomposition identity: Brier = reliability − resolution + uncertainty with binned forecasts', () => {
    const questions = [...many(7, 1, 0.05, 0.3), ...many(4, 3, 0.35, 0.5), ...many(9, 5, 0.55, 0.6), ...many(6, 6, 0.95, 0.9), ...many(3, 0, 0.45, 0.2)];
    const view = computePerformance(questions);
    const d = view.decomposition as { reliability: number; resolution: number; uncertainty: number };
    const brier = questions.reduce((s, q) => s + (q.forecasts[0].p - q.outcome) ** 2, 0) / questions.length;
    expect(d.reliability - d.resolution + d.uncertainty).toBeCloseTo(brier, 5);
    expect(view.brierScore).toBeCloseTo(brier, 4);
    // Unrounded, it is exact to floating point.
    const raw = brierDecomposition(view.calibration) as { reliability: number; resolution: number; uncertainty: number };
    expect(raw.reliability - raw.resolution + raw.uncertainty).toBeCloseTo(brier, 3);
  });

  it('bins the edges: 0.1 in [0.1, 0.2), 0.9999 in the last bin', () => {
    const view = computePerformance([single(0.1, 0), single(0.3, 0), single(0.7, 1), single(0.9999, 1), single(0.0001, 0)]);
    expect(view.calibration.map((b) => b.count)).toEqual([1, 1, 0, 1, 0, 0, 0, 1, 0, 1]);
  });

  it('lists categories with at least the minimum questions: best where the user beats the market most, improvement where worse', () => {
    const questions = [
      ...many(3, 3, 0.9, 0.6, 'Crypto'), // user 0.01, market 0.16: skill 0.15
      ...many(4, 4, 0.7, 0.6, 'Sports'), // user 0.09, market 0.16: skill 0.07
      ...many(3, 0, 0.8, 0.5, 'Politics'), // user 0.64, market 0.25: skill −0.39
      ...many(2, 2, 0.99, 0.5, 'Science'), // only 2 questions: left out
      ...many(5, 5, 0.99, 0.5, null), // no category
    ];
    const view = computePerformance(questions);
    expect(view.bestCategories).toEqual([
      { category: 'Crypto', count: 3, brier: 0.01, marketBrier: 0.16, skill: 0.15 },
      { category: 'Sports', count: 4, brier: 0.09, marketBrier: 0.16, skill: 0.07 },
    ]);
    expect(view.improvementAreas).toEqual([{ category: 'Politics', count: 3, brier: 0.64, marketBrier: 0.25, skill: -0.39 }]);
    expect(computePerformance(questions, { minCategoryQuestions: 2 }).bestCategories.map((c) => c.category)).toEqual(['Science', 'Crypto', 'Sports']);
    expect(computePerformance(questions, { minCategoryQuestions: 4 }).bestCategories.map((c) => c.category)).toEqual(['Sports']);
  });

  it('finds the UTC month by calendar arithmetic as Date does (month edges, leap days, centuries)', () => {
    const edges = ['1970-01-01T00:00:00Z', '2000-02-29T23:59:59.999Z', '2000-03-01T00:00:00Z', '2024-12-31T23:59:59.999Z', '2025-01-01T00:00:00Z', '2100-02-28T12:00:00Z', '2100-03-01T00:00:00Z'];
    const times = [...edges.map((t) => Date.parse(t)), ...Array.from({ length: 2000 }, (_, i) => Date.UTC(1990, 0, 1) + i * 7.3 * DAY)];
    for (const ms of times) {
      const iso = new Date(ms).toISOString();
      expect([iso, utcMonthIndex(ms)]).toEqual([iso, Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1]);
    }
  });

  it('trends by UTC month of resolution, oldest first', () => {
    const view = computePerformance([
      single(0.8, 1, 0.5, null, Date.UTC(2025, 1, 28, 23, 59)),
      single(0.6, 0, 0.5, null, Date.UTC(2025, 2, 1, 0, 0)),
      single(0.3, 0, 0.5, null, Date.UTC(2025, 1, 1)),
    ]);
    expect(view.trend).toEqual([
      { month: '2025-02', count: 2, brier: 0.065, marketBrier: 0.25, log: expect.closeTo((Math.log(0.8) + Math.log(0.7)) / 2, 6), marketLog: -0.693147, accuracy: 1 },
      { month: '2025-03', count: 1, brier: 0.36, marketBrier: 0.25, log: expect.closeTo(Math.log(0.4), 6), marketLog: -0.693147, accuracy: 0 },
    ]);
  });
});
