import Decimal from 'decimal.js';
import type { Job, JobsOptions } from 'bullmq';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { alertsBarDemand } from '../../src/alerts/alert-bar-demand';
import { BinanceLiveSource } from '../../src/prices/binance.client';
import { CoinGeckoLiveSource } from '../../src/prices/coingecko.client';
import { latestPrices } from '../../src/prices/latest-prices.store';
import { MAX_CATCH_UP_MS, unqueuedEvaluationsKey } from '../../src/prices/price-evaluations';
import { loadPricesConfig, priceSourcesFromConfig, type PriceSources } from '../../src/prices/prices.config';
import { marketsToPoll } from '../../src/prices/polled-markets';
import { pollPrices, pricePollLockKey, type PricesDeps } from '../../src/prices/price-poll';
import { fixedClock } from '../../src/runtime/clock';
import { JobQueues } from '../../src/runtime/job-queues';
import type { JobName, JobPayload } from '../../src/registry';
import { createProducerConnection } from '../../src/runtime/redis';
import { SEEDS, runSeeds } from '../../src/seeds/seeds';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { FIXTURES, startPriceStandIn, type StandIn } from './price-stand-ins';

type Clock = ReturnType<typeof fixedClock>;

/**
 * The queue dependency of a poll, failing on demand where Redis would: `refuse` evaluation batches
 * are refused (nothing added), `loseReply` are added and then fail (the reply lost, the worker
 * killed before it went on). Everything else goes through to real Redis.
 */
class FaultyQueues extends JobQueues {
  refuse = 0;
  loseReply = 0;
  override async addBulk<N extends JobName>(items: { name: N; data: JobPayload<N>; options?: JobsOptions }[]): Promise<Job[]> {
    const evaluations = items.some((item) => item.name === 'alerts.evaluate');
    if (evaluations && this.refuse > 0) {
      this.refuse--;
      throw new Error('injected: the evaluation jobs could not be queued');
    }
    const added = await super.addBulk(items);
    if (evaluations && this.loseReply > 0) {
      this.loseReply--;
      throw new Error('injected: the worker died after queueing the evaluation jobs');
    }
    return added;
  }
}

describe('prices.poll (real PostgreSQL and Redis, fixed clocks)', () => {
  let db: TestDatabase;
  const redis = createProducerConnection(testRedisUrl());
  const prefixes: string[] = [];
  const queuesList: JobQueues[] = [];
  let userId: number;
  let watchlistId: number;
  const marketId = new Map<string, number>();

  beforeAll(async () => {
    db = await createTestDatabase();
    await runSeeds(
      db.dataSource,
      SEEDS.filter((s) => ['2026-11-markets', '2026-11-market-hours', '2026-11-market-exchanges'].includes(s.name)),
    );
    const markets: { id: number; symbol: string }[] = await db.dataSource.query('SELECT id, symbol FROM markets');
    markets.forEach((m) => marketId.set(m.symbol, m.id));
    [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('prices@example.test') RETURNING id`);
    [{ id: watchlistId }] = await db.dataSource.query(`INSERT INTO watchlists (user_id, name) VALUES ($1, 'Main') RETURNING id`, [userId]);
  });

  beforeEach(async () => {
    await db.dataSource.query('TRUNCATE price_bars, alerts, watchlist_items, source_health CASCADE');
  });

  afterAll(async () => {
    await Promise.all(queuesList.map((q) => q.close()));
    redis.disconnect();
    await db.drop();
    for (const prefix of prefixes) await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  function context(clock: Clock, sources: PriceSources): PricesDeps & { queues: FaultyQueues } {
    const prefix = testQueuePrefix();
    prefixes.push(prefix);
    const queues = new FaultyQueues(redis, prefix);
    queuesList.push(queues);
    // The alerts' technical conditions are the consumers whose bars the poll keeps.
    return { dataSource: db.dataSource, redis, prefix, queues, clock, sources, barDemand: [alertsBarDemand] };
  }

  const watch = (...symbols: string[]) =>
    db.dataSource.query(
      `INSERT INTO watchlist_items (watchlist_id, market_id, "order") SELECT $1, m.id, row_number() OVER () FROM markets m WHERE m.symbol = ANY($2)`,
      [watchlistId, symbols],
    );

  async function alert(symbol: string, params: Record<string, unknown>, extra: { interval?: string; active?: boolean; expiresAt?: string } = {}) {
    await db.dataSource.query(
      `INSERT INTO alerts (user_id, market_id, name, condition, value, params, interval, is_active, expires_at)
       VALUES ($1, $2, 'a', $3, 1, $4::jsonb, $5, $6, $7)`,
      [userId, marketId.get(symbol), params.type, JSON.stringify(params), extra.interval ?? null, extra.active ?? true, extra.expiresAt ?? null],
    );
  }
  const priceAlert = (symbol: string, extra: { active?: boolean; expiresAt?: string } = {}) =>
    alert(symbol, { type: 'greater_than', value: '1' }, extra);

  const simulated = (clock: Clock, lastPrices: Record<string, string> = {}) =>
    priceSourcesFromConfig(loadPricesConfig({ PRICES_SOURCE: 'simulated', PRICES_SIMULATED_SEED: '7' }), { clock, lastPrices });
  const replay = (clock: Clock) => priceSourcesFromConfig(loadPricesConfig({ PRICES_SOURCE: 'replay', PRICES_REPLAY_DIR: FIXTURES }), { clock });

  async function alertJobs(queues: JobQueues, name: string): Promise<Job[]> {
    const jobs = await queues.queue('alerts').getJobs(['waiting', 'prioritized', 'delayed']);
    return jobs.filter((j) => j.name === name).sort((a, b) => a.timestamp - b.timestamp || String(a.id).localeCompare(String(b.id)));
  }

  async function bars(symbol: string): Promise<Record<string, { open_time: string; open: string; high: string; low: string; close: string; simulated: boolean }[]>> {
    const rows: { interval: string; open_time: Date; open: string; high: string; low: string; close: string; simulated: boolean }[] = await db.dataSource.query(
      `SELECT interval, open_time, trim_scale(open)::text AS open, trim_scale(high)::text AS high, trim_scale(low)::text AS low,
              trim_scale(close)::text AS close, simulated
         FROM price_bars WHERE market_id = $1 ORDER BY interval, open_time`,
      [marketId.get(symbol)],
    );
    const out: Record<string, { open_time: string; open: string; high: string; low: string; close: string; simulated: boolean }[]> = {};
    for (const r of rows) (out[r.interval] ??= []).push({ open_time: new Date(r.open_time).toISOString(), open: r.open, high: r.high, low: r.low, close: r.close, simulated: r.simulated });
    return out;
  }

  describe('which symbols are polled', () => {
    it('crypto: the pairs with an active, unexpired alert or on a watchlist', async () => {
      await watch('BTCUSDT');
      await priceAlert('ETHUSDT');
      await priceAlert('SOLUSDT', { active: false });
      await priceAlert('BNBUSDT', { expiresAt: '2026-11-23T09:00:00Z' });
      await priceAlert('ADAUSDT', { expiresAt: '2026-11-23T11:00:00Z' });
      await watch('AAPL');
      const polled = await marketsToPoll(db.dataSource, 'crypto', new Date('2026-11-23T10:00:00Z'), { simulated: false, quoted: new Set() });
      expect(polled.map((m) => m.symbol)).toEqual(['ADAUSDT', 'BTCUSDT', 'ETHUSDT']);
    });

    it('also polls the symbols a consumer always needs, followed or not, each once', async () => {
      await watch('BTCUSDT');
      await priceAlert('ETHUSDT');
      const now = new Date('2026-11-23T10:00:00Z');
      expect((await marketsToPoll(db.dataSource, 'crypto', now, { simulated: false, quoted: new Set() })).map((m) => m.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
      const polled = await marketsToPoll(db.dataSource, 'crypto', now, { simulated: false, quoted: new Set(), alwaysPolled: ['SOLUSDT', 'ETHUSDT', 'AAPL'] });
      // SOLUSDT only through the demand; ETHUSDT both ways, once; AAPL is no crypto pair.
      expect(polled.map((m) => m.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    });

    it('stocks: only while their exchange is open (regular hours, not weekends, holidays or after the close)', async () => {
      await watch('AAPL', 'JPM', 'SPY', '^GSPC', 'EURUSD');
      // All three already quoted: a closed session adds nothing.
      const quoted = new Set(['AAPL', 'JPM', 'SPY']);
      const at = async (iso: string) => (await marketsToPoll(db.dataSource, 'stocks', new Date(iso), { simulated: false, quoted })).map((m) => m.symbol);
      // Monday 2026-11-23, 10:00 in New York (EST, UTC-5).
      expect(await at('2026-11-23T15:00:00Z')).toEqual(['AAPL', 'JPM', 'SPY']);
      expect(await at('2026-11-23T14:29:59Z')).toEqual([]); // 09:29:59, before the open
      expect(await at('2026-11-23T21:00:00Z')).toEqual([]); // 16:00, the close belongs to what follows
      expect(await at('2026-11-26T15:00:00Z')).toEqual([]); // Thanksgiving
      expect(await at('2026-11-28T15:00:00Z')).toEqual([]); // Saturday
      expect(await at('2026-11-27T17:30:00Z')).toEqual(['AAPL', 'JPM', 'SPY']); // 12:30 the day after Thanksgiving
      expect(await at('2026-11-27T18:30:00Z')).toEqual([]); // 13:30: that day closes at 13:00
    });

    it('stocks in simulated mode also poll indices and FX (no live source has them), whatever the hour', async () => {
      await watch('AAPL', '^GSPC', 'EURUSD');
      const polled = await marketsToPoll(db.dataSource, 'stocks', new Date('2026-11-28T15:00:00Z'), { simulated: true, quoted: new Set(['AAPL']) });
      expect(polled.map((m) => m.symbol)).toEqual(['EURUSD', '^GSPC']);
    });

    it('stocks of a closed exchange without a quote yet are polled once, for their last price', async () => {
      await watch('AAPL', 'JPM');
      // Saturday: both closed. AAPL has no quote yet, JPM has one.
      const polled = await marketsToPoll(db.dataSource, 'stocks', new Date('2026-11-28T15:00:00Z'), { simulated: false, quoted: new Set(['JPM']) });
      expect(polled.map((m) => m.symbol)).toEqual(['AAPL']);
    });

    it('the exchange seed maps the US stocks to XNAS and XNYS (NYSE Arca ETFs to XNYS)', async () => {
      const rows: { symbol: string; exchange_id: string | null }[] = await db.dataSource.query(
        `SELECT symbol, exchange_id FROM markets WHERE type IN ('stock', 'etf') ORDER BY symbol`,
      );
      expect(Object.fromEntries(rows.map((r) => [r.symbol, r.exchange_id]))).toEqual({
        AAPL: 'XNAS',
        AMZN: 'XNAS',
        GLD: 'XNYS',
        JPM: 'XNYS',
        MSFT: 'XNAS',
        NVDA: 'XNAS',
        QQQ: 'XNAS',
        SPY: 'XNYS',
        TSLA: 'XNAS',
      });
    });
  });

  it('replay: stores the latest price, builds every bar, queues one evaluation and records source health; a re-run changes nothing', async () => {
    const clock = fixedClock('2021-10-22T23:00:05Z');
    await watch('BTCUSDT', 'ETHUSDT');
    const deps = context(clock, replay(clock));

    const first = await pollPrices(deps, 'crypto');
    // ETHUSDT has no recording: left out, as an unknown symbol would be.
    expect(first).toMatchObject({ status: 'polled', source: 'binance', fellBack: false, asked: 2, quotes: 1, updated: 1, evaluateJobs: 1 });
    const latest = await latestPrices(redis, deps.prefix, ['BTCUSDT', 'ETHUSDT']);
    expect([...latest.values()]).toEqual([
      { symbol: 'BTCUSDT', price: '60740.00000000', at: '2021-10-22T23:00:05.000Z', change24hPercent: null, source: 'binance', simulated: false },
    ]);
    const [evaluate] = await alertJobs(deps.queues, 'alerts.evaluate');
    expect(evaluate.data).toEqual({ ticks: [{ symbol: 'BTCUSDT', previous: null, current: '60740.00000000', at: '2021-10-22T23:00:05.000Z' }] });
    const stored = await bars('BTCUSDT');
    const bar = (open_time: string) => ({ open_time, open: '60740', high: '60740', low: '60740', close: '60740', simulated: false });
    expect(stored).toEqual({
      '15m': [bar('2021-10-22T23:00:00.000Z')],
      '1d': [bar('2021-10-22T00:00:00.000Z')],
      '1h': [bar('2021-10-22T23:00:00.000Z')],
      '1m': [bar('2021-10-22T23:00:00.000Z')],
      '4h': [bar('2021-10-22T20:00:00.000Z')],
      '5m': [bar('2021-10-22T23:00:00.000Z')],
    });
    const [health] = await db.dataSource.query(`SELECT source, consecutive_failures, last_data_at FROM source_health`);
    expect(health).toEqual({ source: 'binance', consecutive_failures: 0, last_data_at: new Date('2021-10-22T23:00:05Z') });

    const counts = await deps.queues.queue('alerts').getJobCounts();
    const again = await pollPrices(deps, 'crypto');
    expect(again).toMatchObject({ status: 'polled', quotes: 1, updated: 0, evaluateJobs: 0, closedBars: 0, evaluateBarsJobs: 0 });
    expect(await deps.queues.queue('alerts').getJobCounts()).toEqual(counts);
    expect(await bars('BTCUSDT')).toEqual(stored);
  });

  it('falls back to CoinGecko when Binance answers 500, and records both outcomes (local servers, recorded payloads)', async () => {
    const binance: StandIn = await startPriceStandIn();
    const coingecko: StandIn = await startPriceStandIn();
    try {
      binance.mode = 'failing';
      const clock = fixedClock('2026-11-23T10:00:00Z');
      await watch('BTCUSDT');
      const now = () => clock.now();
      const deps = context(clock, {
        crypto: new BinanceLiveSource({ baseUrl: binance.base, now }),
        cryptoFallback: new CoinGeckoLiveSource({ baseUrl: `${coingecko.base}/api/v3`, now }),
        stocks: null,
      });
      const result = await pollPrices(deps, 'crypto');
      expect(result).toMatchObject({ status: 'polled', source: 'coingecko', fellBack: true, quotes: 1, updated: 1 });
      expect(binance.requests.map((r) => new URL(r.url!, 'http://x').pathname)).toEqual(['/api/v3/ticker/price']);
      expect(coingecko.requests.map((r) => new URL(r.url!, 'http://x').pathname)).toEqual(['/api/v3/simple/price']);
      const latest = (await latestPrices(redis, deps.prefix, ['BTCUSDT'])).get('BTCUSDT');
      expect(latest).toEqual({
        symbol: 'BTCUSDT',
        price: '67187.3358936566',
        at: '2024-03-25T08:45:00.000Z',
        change24hPercent: '3.63727894677354',
        source: 'coingecko',
        simulated: false,
      });
      const health: { source: string; consecutive_failures: number; last_error: string | null }[] = await db.dataSource.query(
        'SELECT source, consecutive_failures, last_error FROM source_health ORDER BY source',
      );
      expect(health).toEqual([
        { source: 'binance', consecutive_failures: 1, last_error: expect.stringContaining('HTTP 500') },
        { source: 'coingecko', consecutive_failures: 0, last_error: null },
      ]);
    } finally {
      await binance.close();
      await coingecko.close();
    }
  });

  it('a permanent Binance failure (403) is not hidden behind the fallback', async () => {
    const binance = await startPriceStandIn();
    try {
      binance.mode = 'forbidden';
      const clock = fixedClock('2026-11-23T10:00:00Z');
      await watch('BTCUSDT');
      const deps = context(clock, {
        crypto: new BinanceLiveSource({ baseUrl: binance.base }),
        cryptoFallback: new CoinGeckoLiveSource({ baseUrl: `${binance.base}/never-asked` }),
        stocks: null,
      });
      await expect(pollPrices(deps, 'crypto')).rejects.toThrow(/403/);
      expect(binance.requests).toHaveLength(1);
    } finally {
      await binance.close();
    }
  });

  it('simulated: bars of every interval across a period boundary, closed bars queued for technical alerts, idempotent re-run', async () => {
    const clock = fixedClock('2026-11-23T23:59:30Z');
    await watch('BTCUSDT');
    await alert('BTCUSDT', { type: 'rsi_above', level: 70, period: 14 }, { interval: '1m' });
    await alert('BTCUSDT', { type: 'price_crossing_ma', ma: 'sma', period: 20, direction: 'any' }, { interval: '1d' });
    const deps = context(clock, simulated(clock));
    const prices: string[] = [];
    for (const at of ['2026-11-23T23:59:30Z', '2026-11-23T23:59:40Z', '2026-11-23T23:59:50Z']) {
      clock.set(at);
      const result = await pollPrices(deps, 'crypto');
      expect(result).toMatchObject({ source: 'simulated', updated: 1, closedBars: 0, evaluateBarsJobs: 0 });
      prices.push((await latestPrices(redis, deps.prefix, ['BTCUSDT'])).get('BTCUSDT')!.price);
    }
    // The walk starts at the recorded anchor and moves every 10 s.
    expect(prices[0]).toBe('60740.00');
    expect(new Set(prices).size).toBe(3);
    const norm = (p: string) => new Decimal(p).toString();
    const high = norm(Decimal.max(...prices).toString());
    const low = norm(Decimal.min(...prices).toString());
    const before = await bars('BTCUSDT');
    const openTimes = { '1m': '23:59', '5m': '23:55', '15m': '23:45', '1h': '23:00', '4h': '20:00', '1d': '00:00' } as const;
    for (const [interval, hhmm] of Object.entries(openTimes)) {
      expect(before[interval]).toEqual([
        { open_time: `2026-11-23T${hhmm}:00.000Z`, open: norm(prices[0]), high, low, close: norm(prices[2]), simulated: true },
      ]);
    }

    clock.set('2026-11-24T00:00:00Z');
    const crossing = await pollPrices(deps, 'crypto');
    expect(crossing).toMatchObject({ updated: 1, closedBars: 6, evaluateBarsJobs: 1 });
    const p = norm((await latestPrices(redis, deps.prefix, ['BTCUSDT'])).get('BTCUSDT')!.price);
    const after = await bars('BTCUSDT');
    for (const interval of Object.keys(openTimes)) {
      expect(after[interval]).toEqual([before[interval][0], { open_time: '2026-11-24T00:00:00.000Z', open: p, high: p, low: p, close: p, simulated: true }]);
    }
    // Only the intervals some technical alert is evaluated on.
    const [evaluateBars] = await alertJobs(deps.queues, 'alerts.evaluate-bars');
    expect(evaluateBars.data.bars).toEqual([
      { symbol: 'BTCUSDT', interval: '1m', openTime: '2026-11-23T23:59:00.000Z' },
      { symbol: 'BTCUSDT', interval: '1d', openTime: '2026-11-23T00:00:00.000Z' },
    ]);
    const evaluations = await alertJobs(deps.queues, 'alerts.evaluate');
    expect(evaluations.map((j) => j.data.ticks[0].previous)).toEqual([null, prices[0], prices[1], prices[2]]);

    const counts = { alerts: await deps.queues.queue('alerts').getJobCounts(), prices: await deps.queues.queue('prices').getJobCounts() };
    const rerun = await pollPrices(deps, 'crypto');
    expect(rerun).toMatchObject({ updated: 0, closedBars: 0, evaluateJobs: 0, evaluateBarsJobs: 0 });
    expect({ alerts: await deps.queues.queue('alerts').getJobCounts(), prices: await deps.queues.queue('prices').getJobCounts() }).toEqual(counts);
    expect(await bars('BTCUSDT')).toEqual(after);
  });

  it('simulated, exchange closed: the first poll quotes every followed market, each on its own tick, with a 24 h change', async () => {
    // Saturday: the NYSE and Nasdaq are closed; nothing is stored yet.
    const clock = fixedClock('2026-11-28T15:00:00Z');
    await watch('AAPL', 'EURUSD', 'USDJPY', 'ES', 'BTCUSDT');
    const types: Record<string, string> = Object.fromEntries(
      (await db.dataSource.query('SELECT symbol, type FROM markets')).map((m: { symbol: string; type: string }) => [m.symbol, m.type]),
    );
    const sources = priceSourcesFromConfig(loadPricesConfig({ PRICES_SOURCE: 'simulated', PRICES_SIMULATED_SEED: '7' }), { clock, marketTypes: types });
    const deps = context(clock, sources);
    expect(await pollPrices(deps, 'stocks')).toMatchObject({ asked: 4, updated: 4 });
    expect(await pollPrices(deps, 'crypto')).toMatchObject({ asked: 1, updated: 1 });
    const latest = await latestPrices(redis, deps.prefix, ['AAPL', 'EURUSD', 'USDJPY', 'ES', 'BTCUSDT']);
    const decimals = (symbol: string) => latest.get(symbol)!.price.split('.')[1]?.length ?? 0;
    expect([...latest.keys()].sort()).toEqual(['AAPL', 'BTCUSDT', 'ES', 'EURUSD', 'USDJPY']);
    expect({ AAPL: decimals('AAPL'), EURUSD: decimals('EURUSD'), USDJPY: decimals('USDJPY'), ES: decimals('ES'), BTCUSDT: decimals('BTCUSDT') }).toEqual({
      AAPL: 2,
      EURUSD: 4,
      USDJPY: 2,
      ES: 2,
      BTCUSDT: 2,
    });
    // ES trades in quarter points.
    expect(new Decimal(latest.get('ES')!.price).mod('0.25').isZero()).toBe(true);
    for (const quote of latest.values()) {
      expect(quote.simulated).toBe(true);
      expect(quote.change24hPercent).toMatch(/^-?\d+\.\d{2}$/);
    }
    // AAPL's exchange is still closed: once quoted, it is not polled again until the open.
    clock.set('2026-11-28T15:01:00Z');
    expect(await pollPrices(deps, 'stocks')).toMatchObject({ asked: 3 });
  });

  it('queues one backfill per symbol, interval and day where technical alerts or watchers lack bars', async () => {
    const clock = fixedClock('2026-11-23T10:00:00Z');
    await watch('BTCUSDT');
    await alert('BTCUSDT', { type: 'macd_signal_cross', fast: 12, slow: 26, signal: 9, direction: 'any' }, { interval: '15m' });
    await alert('ETHUSDT', { type: 'rsi_below', level: 30, period: 14 }, { interval: '4h' });
    // A price alert needs no bars.
    await priceAlert('SOLUSDT');
    const deps = context(clock, simulated(clock, { ETHUSDT: '3000.00', SOLUSDT: '150.00' }));
    const result = await pollPrices(deps, 'crypto');
    expect(result.backfills).toBe(3);
    const jobs = await deps.queues.queue('prices').getJobs(['waiting']);
    expect(jobs.map((j) => ({ id: j.id, data: j.data })).sort((a, b) => a.id!.localeCompare(b.id!))).toEqual([
      { id: 'prices.backfill-bars/BTCUSDT/15m/2026-11-23', data: { symbol: 'BTCUSDT', interval: '15m', limit: 500 } },
      { id: 'prices.backfill-bars/BTCUSDT/1h/2026-11-23', data: { symbol: 'BTCUSDT', interval: '1h', limit: 500 } },
      { id: 'prices.backfill-bars/ETHUSDT/4h/2026-11-23', data: { symbol: 'ETHUSDT', interval: '4h', limit: 500 } },
    ]);
    // The next poll the same day adds no job.
    clock.advance(10_000);
    await pollPrices(deps, 'crypto');
    expect(await deps.queues.queue('prices').getJobCounts('waiting')).toEqual({ waiting: 3 });
  });

  it('skips a poll while another of the same kind holds the lock, and stocks without a source', async () => {
    const clock = fixedClock('2026-11-23T15:00:00Z');
    await watch('BTCUSDT');
    const deps = context(clock, simulated(clock));
    await redis.set(pricePollLockKey(deps.prefix, 'crypto'), 'someone else', 'PX', 5000);
    expect(await pollPrices(deps, 'crypto')).toMatchObject({ status: 'busy', updated: 0 });
    await redis.del(pricePollLockKey(deps.prefix, 'crypto'));
    expect(await pollPrices(deps, 'crypto')).toMatchObject({ status: 'polled', updated: 1 });
    expect(await pollPrices({ ...deps, sources: { ...deps.sources, stocks: null } }, 'stocks')).toMatchObject({ status: 'no_source' });
  });

  describe('a poll that stored its quotes but did not queue their evaluation', () => {
    /** Each alerts.evaluate job's ticks, in the order queued (ids are deterministic: one job per stored batch). */
    const evaluated = async (queues: JobQueues) =>
      (await alertJobs(queues, 'alerts.evaluate')).map((j) => (j.data.ticks as { symbol: string; previous: string | null; current: string }[]).map((t) => [t.symbol, t.previous, t.current]));
    const price = async (prefix: string) => (await latestPrices(redis, prefix, ['BTCUSDT'])).get('BTCUSDT')!.price;
    /** A watched BTCUSDT polled at 10:00:00 (price p0), then a poll at 10:00:10 that stored its tick but could not queue its evaluation. */
    const storedButNotQueued = async () => {
      const clock = fixedClock('2026-11-23T10:00:00Z');
      await watch('BTCUSDT');
      const deps = context(clock, simulated(clock));
      await pollPrices(deps, 'crypto');
      const p0 = await price(deps.prefix);
      clock.set('2026-11-23T10:00:10Z');
      deps.queues.refuse = 1;
      await expect(pollPrices(deps, 'crypto')).rejects.toThrow(/could not be queued/);
      return { clock, deps, p0 };
    };

    it('its retry queues them first, with the price each replaced, once; later polls go on from there', async () => {
      const { clock, deps, p0 } = await storedButNotQueued();
      // Stored (the gate moved on) but not queued: before the fix, this tick was never evaluated.
      const p1 = await price(deps.prefix);
      expect(p1).not.toBe(p0);
      expect(await evaluated(deps.queues)).toEqual([[['BTCUSDT', null, p0]]]);
      expect(await redis.hlen(unqueuedEvaluationsKey(deps.prefix, 'crypto'))).toBe(1);
      // The lock was released: the retry is not skipped as busy.
      expect(await redis.exists(pricePollLockKey(deps.prefix, 'crypto'))).toBe(0);

      // The retry (BullMQ backoff: 1 s later) finds no newer quote, and queues the stored tick.
      clock.set('2026-11-23T10:00:11Z');
      expect(await pollPrices(deps, 'crypto')).toMatchObject({ status: 'polled', updated: 0, evaluateJobs: 0, caughtUp: 1, staleDropped: 0 });
      expect(await evaluated(deps.queues)).toEqual([[['BTCUSDT', null, p0]], [['BTCUSDT', p0, p1]]]);
      expect(await redis.hlen(unqueuedEvaluationsKey(deps.prefix, 'crypto'))).toBe(0);

      clock.set('2026-11-23T10:00:12Z');
      expect(await pollPrices(deps, 'crypto')).toMatchObject({ updated: 0, evaluateJobs: 0, caughtUp: 0 });
      clock.set('2026-11-23T10:00:20Z');
      expect(await pollPrices(deps, 'crypto')).toMatchObject({ updated: 1, evaluateJobs: 1, caughtUp: 0 });
      const p2 = await price(deps.prefix);
      expect(await evaluated(deps.queues)).toEqual([[['BTCUSDT', null, p0]], [['BTCUSDT', p0, p1]], [['BTCUSDT', p1, p2]]]);
    });

    it('while queueing keeps failing, later polls store nothing (the catch-up fails first); the first to succeed queues the old ticks, then its own', async () => {
      const clock = fixedClock('2026-11-23T10:00:00Z');
      await watch('BTCUSDT');
      await priceAlert('ETHUSDT');
      const deps = context(clock, simulated(clock, { ETHUSDT: '3000.00' }));
      const prices = async () => new Map([...(await latestPrices(redis, deps.prefix, ['BTCUSDT', 'ETHUSDT']))].map(([s, l]) => [s, l.price]));
      await pollPrices(deps, 'crypto');
      const p0 = await prices();
      clock.set('2026-11-23T10:00:10Z');
      deps.queues.refuse = 1;
      await expect(pollPrices(deps, 'crypto')).rejects.toThrow(/could not be queued/);
      const p1 = await prices();
      // Every attempt of the next scheduled poll (and its retries) fails too: nothing more is stored.
      for (const at of ['2026-11-23T10:00:20Z', '2026-11-23T10:00:21Z', '2026-11-23T10:00:23Z']) {
        clock.set(at);
        deps.queues.refuse = 1;
        await expect(pollPrices(deps, 'crypto')).rejects.toThrow(/could not be queued/);
        expect(await prices()).toEqual(p1);
      }
      clock.set('2026-11-23T10:00:30Z');
      expect(await pollPrices(deps, 'crypto')).toMatchObject({ updated: 2, evaluateJobs: 1, caughtUp: 1 });
      const p3 = await prices();
      const chain = (from: Map<string, string> | null, to: Map<string, string>) => ['BTCUSDT', 'ETHUSDT'].map((s) => [s, from?.get(s) ?? null, to.get(s)]);
      expect(await evaluated(deps.queues)).toEqual([chain(null, p0), chain(p0, p1), chain(p1, p3)]);
    });

    it('queued but the reply lost (the worker died before clearing its record): queued again under the same id, so once', async () => {
      const clock = fixedClock('2026-11-23T10:00:00Z');
      await watch('BTCUSDT');
      const deps = context(clock, simulated(clock));
      await pollPrices(deps, 'crypto');
      clock.set('2026-11-23T10:00:10Z');
      deps.queues.loseReply = 1;
      await expect(pollPrices(deps, 'crypto')).rejects.toThrow(/worker died/);
      expect(await redis.hlen(unqueuedEvaluationsKey(deps.prefix, 'crypto'))).toBe(1);
      expect(await alertJobs(deps.queues, 'alerts.evaluate')).toHaveLength(2);

      clock.set('2026-11-23T10:00:11Z');
      expect(await pollPrices(deps, 'crypto')).toMatchObject({ updated: 0, caughtUp: 1 });
      expect(await alertJobs(deps.queues, 'alerts.evaluate')).toHaveLength(2);
      expect(await redis.hlen(unqueuedEvaluationsKey(deps.prefix, 'crypto'))).toBe(0);
    });

    it('the catch-up needs only Redis: it runs when PostgreSQL fails the rest of the poll', async () => {
      const { clock, deps } = await storedButNotQueued();
      // A data source whose every query fails, as during a PostgreSQL restart.
      const down = new Proxy(db.dataSource, {
        get: (target, property, receiver) =>
          property === 'query' ? () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) : Reflect.get(target, property, receiver),
      });
      clock.set('2026-11-23T10:00:11Z');
      await expect(pollPrices({ ...deps, dataSource: down }, 'crypto')).rejects.toThrow(/ECONNREFUSED/);
      expect(await alertJobs(deps.queues, 'alerts.evaluate')).toHaveLength(2);
      expect(await redis.hlen(unqueuedEvaluationsKey(deps.prefix, 'crypto'))).toBe(0);
    });

    it('ticks stored longer ago than MAX_CATCH_UP_MS are dropped and counted, not evaluated late', async () => {
      const { clock, deps } = await storedButNotQueued();
      const p1 = await price(deps.prefix);
      clock.advance(MAX_CATCH_UP_MS + 10_000);
      expect(await pollPrices(deps, 'crypto')).toMatchObject({ updated: 1, evaluateJobs: 1, caughtUp: 0, staleDropped: 1 });
      const jobs = await evaluated(deps.queues);
      expect(jobs).toHaveLength(2);
      // The next tick still starts from the stored price.
      expect(jobs[1][0][1]).toBe(p1);
      expect(await redis.hlen(unqueuedEvaluationsKey(deps.prefix, 'crypto'))).toBe(0);
    });
  });
});
