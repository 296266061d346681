import type { AlertCondition, PricePoint, PriceTick } from '../../src/alerts/alert-conditions';
import { AlertIndex, matchByFullScan, type IndexedAlert } from '../../src/alerts/alert-index';
import { parseHistory } from '../../src/alerts/alert-price-history';
import { randomAlertCondition, seededRandom } from '../../src/testing/alert-conditions';

const T0 = Date.parse('2026-11-21T10:00:00Z');
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'AAPL', 'SPY'];

// Prices and thresholds on a coarse grid (with equal decimals spelled differently) so that
// ticks land exactly on thresholds often: the cases where a float shortcut would go wrong.
function gridPrice(random: () => number): string {
  const cents = 9000 + Math.floor(random() * 2000);
  const spelled = random();
  const whole = Math.floor(cents / 100);
  const fraction = String(cents % 100).padStart(2, '0');
  if (spelled < 0.2 && fraction === '00') return String(whole);
  return spelled < 0.5 ? `${whole}.${fraction}` : `${whole}.${fraction}0000`;
}

function randomTick(random: () => number, previous: string | null, history: PricePoint[], minute: number): PriceTick {
  return { previous, current: gridPrice(random), at: new Date(T0 + minute * 60_000), history };
}

const ids = (alerts: IndexedAlert[]) => alerts.map((a) => a.id).sort((a, b) => a - b);

/**
 * The index's matches for the ticks, given their history as points; the same ticks given the parsed
 * form (as the evaluator keeps it, with the decimals alongside) must match exactly the same alerts.
 */
function indexMatches(index: AlertIndex, ticks: Map<string, PriceTick>): IndexedAlert[] {
  const out: IndexedAlert[] = [];
  for (const [symbol, tick] of ticks) index.match(symbol, tick, out);
  const parsed: IndexedAlert[] = [];
  for (const [symbol, { history, ...bare }] of ticks) {
    // Entries outside [start, end) (here: prices far off, at the tick's own time) must be ignored.
    const stray = { at: bare.at, price: '1' };
    const withMargins = parseHistory([stray, ...(history ?? []), stray]);
    index.match(symbol, bare, parsed, { ...withMargins, start: 1, end: withMargins.end - 1 });
  }
  expect(ids(parsed)).toEqual(ids(out));
  return out;
}

describe('alert index', () => {
  it('returns exactly what a full scan returns, for random alerts and random ticks', () => {
    const random = seededRandom(20261121);
    let compared = 0;
    for (let round = 0; round < 60; round++) {
      const alerts: IndexedAlert[] = Array.from({ length: 400 }, (_, i) => ({
        id: i + 1,
        symbol: SYMBOLS[Math.floor(random() * SYMBOLS.length)],
        condition: randomAlertCondition(random, () => gridPrice(random)),
      }));
      const index = AlertIndex.fromAlerts(alerts);
      const histories = new Map<string, PricePoint[]>(SYMBOLS.map((s) => [s, []]));
      const last = new Map<string, string | null>(SYMBOLS.map((s) => [s, null]));
      for (let minute = 0; minute < 25; minute++) {
        const ticks = new Map<string, PriceTick>();
        for (const symbol of SYMBOLS) {
          const history = histories.get(symbol)!;
          // History in either order: the index must not depend on it.
          const tick = randomTick(random, last.get(symbol)!, minute % 2 ? [...history].reverse() : [...history], minute);
          ticks.set(symbol, tick);
          history.push({ at: tick.at, price: tick.current });
          last.set(symbol, tick.current);
        }
        const expected = ids(matchByFullScan(alerts, ticks));
        expect(ids(indexMatches(index, ticks))).toEqual(expected);
        compared += expected.length;
      }
    }
    // The comparison is only meaningful if alerts actually fired.
    expect(compared).toBeGreaterThan(10_000);
  });

  it('stays consistent with a full scan through random adds, updates, removals, disarms and re-arms', () => {
    const random = seededRandom(7);
    const live = new Map<number, IndexedAlert>();
    const disarmedUntil = new Map<number, number>();
    const index = AlertIndex.fromAlerts([]);
    let nextId = 1;
    let previous: Record<string, string | null> = Object.fromEntries(SYMBOLS.map((s) => [s, null]));
    for (let step = 0; step < 3000; step++) {
      const roll = random();
      const existing = [...live.keys()];
      if (roll < 0.5 || existing.length === 0) {
        const alert = { id: nextId++, symbol: SYMBOLS[Math.floor(random() * 4)], condition: randomAlertCondition(random, () => gridPrice(random)) };
        index.upsert(alert);
        live.set(alert.id, alert);
      } else if (roll < 0.65) {
        // An edit re-arms the alert.
        const id = existing[Math.floor(random() * existing.length)];
        const alert = { id, symbol: SYMBOLS[Math.floor(random() * 4)], condition: randomAlertCondition(random, () => gridPrice(random)) };
        index.upsert(alert);
        live.set(id, alert);
        disarmedUntil.delete(id);
      } else if (roll < 0.8) {
        const id = existing[Math.floor(random() * existing.length)];
        const until = step + Math.floor(random() * 50);
        expect(index.disarm(id, until)).toBe(!disarmedUntil.has(id));
        if (!disarmedUntil.has(id)) disarmedUntil.set(id, until);
      } else {
        const id = existing[Math.floor(random() * existing.length)];
        expect(index.remove(id)).toBe(true);
        live.delete(id);
        disarmedUntil.delete(id);
      }
      if (step % 10 === 0) {
        const rearmed = ids(index.rearmDue(step));
        const due = [...disarmedUntil].filter(([, until]) => until <= step).map(([id]) => id);
        expect(rearmed).toEqual(due.sort((a, b) => a - b));
        for (const id of due) disarmedUntil.delete(id);
        const ticks = new Map<string, PriceTick>(SYMBOLS.map((s) => [s, randomTick(random, previous[s], [], step)]));
        previous = Object.fromEntries([...ticks].map(([s, t]) => [s, t.current]));
        const armed = [...live.values()].filter((a) => !disarmedUntil.has(a.id));
        expect(ids(indexMatches(index, ticks))).toEqual(ids(matchByFullScan(armed, ticks)));
        expect(index.size).toBe(live.size);
      }
    }
    expect(index.remove(999_999)).toBe(false);
  });

  it('returns exactly what a full scan returns while prices creep between thresholds, through edits between ticks', () => {
    // Small steps keep each price inside the same gap between thresholds for several ticks (the
    // index then answers from its cached brackets without reading the thresholds); edits between
    // ticks move thresholds into and out of those gaps. Cents on a narrow band make ties frequent.
    const random = seededRandom(424242);
    const cents = (c: number) => {
      const text = (c / 100).toFixed(2);
      const spelled = random();
      return spelled < 0.3 ? text.replace(/\.?0+$/, '') : spelled < 0.6 ? `${text}000` : text;
    };
    const level = { BTCUSDT: 10_000, ETHUSDT: 10_500 } as Record<string, number>;
    const symbols = Object.keys(level);
    const near = (symbol: string) => () => cents(level[symbol] + Math.floor(random() * 101) - 50);
    const condition = (symbol: string): AlertCondition => {
      if (random() < 0.25) {
        // Many distinct windows (1-40 minutes), so windows are added and renumbered after the build.
        const minutes = 1 + Math.floor(random() * 40);
        const up = random() < 0.5;
        const threshold = cents(1 + Math.floor(random() * 60));
        return random() < 0.5
          ? { type: up ? 'moving_up_percent' : 'moving_down_percent', percent: threshold, minutes }
          : { type: up ? 'moving_up' : 'moving_down', amount: threshold, minutes };
      }
      return randomAlertCondition(random, near(symbol));
    };
    const live = new Map<number, IndexedAlert>();
    let nextId = 1;
    for (; nextId <= 600; nextId++) {
      const symbol = symbols[nextId % 2];
      live.set(nextId, { id: nextId, symbol, condition: condition(symbol) });
    }
    const index = AlertIndex.fromAlerts(live.values());
    const disarmed = new Map<number, number>();
    const histories = new Map<string, PricePoint[]>(symbols.map((s) => [s, []]));
    const last = new Map<string, string | null>(symbols.map((s) => [s, null]));
    let matches = 0;
    for (let step = 0; step < 300; step++) {
      const at = new Date(T0 + step * 20_000);
      // A few edits between ticks.
      for (let e = Math.floor(random() * 3); e > 0; e--) {
        const ids = [...live.keys()];
        const roll = random();
        if (roll < 0.3) {
          const symbol = symbols[Math.floor(random() * 2)];
          const alert = { id: nextId++, symbol, condition: condition(symbol) };
          index.upsert(alert);
          live.set(alert.id, alert);
        } else if (roll < 0.5) {
          const id = ids[Math.floor(random() * ids.length)];
          const symbol = symbols[Math.floor(random() * 2)];
          const alert = { id, symbol, condition: condition(symbol) };
          index.upsert(alert);
          live.set(id, alert);
          disarmed.delete(id);
        } else if (roll < 0.7) {
          const id = ids[Math.floor(random() * ids.length)];
          index.remove(id);
          live.delete(id);
          disarmed.delete(id);
        } else if (roll < 0.9) {
          const id = ids[Math.floor(random() * ids.length)];
          if (index.disarm(id, step + 1 + Math.floor(random() * 30))) disarmed.set(id, step);
        } else {
          for (const alert of index.rearmDue(step)) disarmed.delete(alert.id);
        }
      }
      const ticks = new Map<string, PriceTick>();
      for (const symbol of symbols) {
        level[symbol] += Math.floor(random() * 7) - 3;
        const history = histories.get(symbol)!;
        // History in time order, reversed or shuffled: the index must not depend on it.
        const order = random();
        const given = order < 0.5 ? [...history] : order < 0.75 ? [...history].reverse() : [...history].sort(() => random() - 0.5);
        const tick: PriceTick = { previous: last.get(symbol)!, current: cents(level[symbol]), at, history: given };
        ticks.set(symbol, tick);
        history.push({ at, price: tick.current });
        last.set(symbol, tick.current);
      }
      const armed = [...live.values()].filter((a) => !disarmed.has(a.id));
      const expected = ids(matchByFullScan(armed, ticks));
      expect(ids(indexMatches(index, ticks))).toEqual(expected);
      matches += expected.length;
    }
    expect(matches).toBeGreaterThan(5_000);
  });

  it('compares exactly where different decimals are the same double (above 2^53)', () => {
    // Every price and threshold here is one of a few doubles (they are 2 apart at this magnitude),
    // so nearly every comparison is a tie that only the exact decimals decide.
    const random = seededRandom(253);
    const price = () => `900719925474099${Math.floor(random() * 6)}.${String(Math.floor(random() * 4) * 25).padStart(2, '0')}`;
    const alerts: IndexedAlert[] = Array.from({ length: 800 }, (_, i) => ({
      id: i + 1,
      symbol: SYMBOLS[i % 2],
      condition: randomAlertCondition(random, price),
    }));
    const index = AlertIndex.fromAlerts(alerts);
    const last = new Map<string, string | null>(SYMBOLS.map((s) => [s, null]));
    const history = new Map<string, PricePoint[]>(SYMBOLS.map((s) => [s, []]));
    let matches = 0;
    for (let minute = 0; minute < 60; minute++) {
      const ticks = new Map<string, PriceTick>();
      for (const symbol of SYMBOLS.slice(0, 2)) {
        const tick: PriceTick = { previous: last.get(symbol)!, current: price(), at: new Date(T0 + minute * 60_000), history: [...history.get(symbol)!] };
        ticks.set(symbol, tick);
        history.get(symbol)!.push({ at: tick.at, price: tick.current });
        last.set(symbol, tick.current);
      }
      const expected = ids(matchByFullScan(alerts, ticks));
      expect(ids(indexMatches(index, ticks))).toEqual(expected);
      matches += expected.length;
    }
    expect(matches).toBeGreaterThan(5_000);
  });

  it('skips a fired level alert until it is re-armed, then matches it against the latest price', () => {
    const index = AlertIndex.fromAlerts([{ id: 5, symbol: 'BTCUSDT', condition: { type: 'greater_than', value: '60000' } }]);
    const tick = (current: string): PriceTick => ({ previous: '60100', current, at: new Date(T0) });
    expect(ids(index.match('BTCUSDT', tick('60200')))).toEqual([5]);
    const nextUtcDay = Date.parse('2026-11-22T00:00:00Z');
    index.disarm(5, nextUtcDay);
    expect(index.match('BTCUSDT', tick('60300'))).toEqual([]);
    expect(index.rearmDue(nextUtcDay - 1)).toEqual([]);
    expect(ids(index.rearmDue(nextUtcDay))).toEqual([5]);
    expect(index.isArmed(5)).toBe(true);
    expect(ids(index.match('BTCUSDT', { previous: null, current: '60400', at: new Date(nextUtcDay) }))).toEqual([5]);
  });

  it('moves an alert to its new symbol and threshold on update', () => {
    const condition: AlertCondition = { type: 'crossing_up', value: '100' };
    const index = AlertIndex.fromAlerts([{ id: 1, symbol: 'AAPL', condition }]);
    index.upsert({ id: 1, symbol: 'SPY', condition: { type: 'crossing_up', value: '200' } });
    const tick = (previous: string, current: string): PriceTick => ({ previous, current, at: new Date(T0) });
    expect(index.match('AAPL', tick('99', '101'))).toEqual([]);
    expect(index.match('SPY', tick('99', '101'))).toEqual([]);
    expect(ids(index.match('SPY', tick('199', '201')))).toEqual([1]);
  });

  it('keeps technical alerts out of ticks, per symbol for bar closes', () => {
    const index = AlertIndex.fromAlerts([
      { id: 1, symbol: 'AAPL', condition: { type: 'rsi_above', level: 70, period: 14 } },
      { id: 2, symbol: 'AAPL', condition: { type: 'greater_than', value: '1' } },
    ]);
    expect(ids(index.match('AAPL', { previous: null, current: '5', at: new Date(T0) }))).toEqual([2]);
    expect(ids(index.technicalAlerts('AAPL'))).toEqual([1]);
    index.remove(1);
    expect(index.technicalAlerts('AAPL')).toEqual([]);
  });

  it('refuses rows with a duplicate id', () => {
    const alert: IndexedAlert = { id: 1, symbol: 'AAPL', condition: { type: 'less_than', value: '1' } };
    expect(() => AlertIndex.fromAlerts([alert, alert])).toThrow('alert 1 appears twice');
  });
});
