import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { applyMarkets, marketContent, parseGammaMarket, recomputePerformance, resolveMarketForecasts } from '@tickerbell/jobs/predictions';
import type {
  MispricingPage,
  PredictionFollowView,
  PredictionForecastView,
  PredictionForecastsPage,
  PredictionMarketPage,
  PredictionMarketsPage,
  PredictionPerformanceView,
  PredictionResearchView,
} from '@tickerbell/jobs/predictions/shapes';
import { AccountsHarness } from '../support/accounts-harness';
import { quickUser, type SignedIn } from '../support/route-requests';

/** The recorded open Gamma market (jobs/src/predictions/data), varied into the markets of these tests. */
const RECORDED = JSON.parse(readFileSync(join(__dirname, '../../../jobs/src/predictions/data/polymarket_gamma_market_open_btc-updown-5m_2026-03-11.json'), 'utf8')) as Record<string, unknown>;

function gammaMarket(id: string, question: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...RECORDED, id, question, slug: `${RECORDED.slug as string}-${id}`, conditionId: `0x${id.padStart(64, '0')}`, endDate: '2031-03-12T09:25:00Z', events: [], ...changes };
}

/** Every key of an object (sorted), for "the answer has the shape's fields". */
const keys = (value: object) => Object.keys(value).sort();

/** The predictions api through the real app (sessions, CSRF, PostgreSQL, Redis); markets written with the sync's own store function. */
describe('predictions api (real app, signed-in users)', () => {
  const harness = new AccountsHarness();
  let server: http.Server;
  let capped: http.Server;
  let ann: SignedIn;
  let ben: SignedIn;
  let open: number;
  let other: number;
  let closed: number;

  const post = (who: SignedIn, path: string, body: unknown) => who.agent.post(path).set('x-csrf-token', who.csrf).send(body as object);
  const del = (who: SignedIn, path: string) => who.agent.delete(path).set('x-csrf-token', who.csrf);
  const forecast = (who: SignedIn, marketId: number, body: unknown) => post(who, `/api/predictions/markets/${marketId}/forecasts`, body);
  const fieldOf = (res: { status: number; body: { error?: { details?: { field: string }[] } } }) => [res.status, res.body.error?.details?.[0]?.field];

  beforeAll(async () => {
    await harness.start();
    server = http.createServer(harness.app()).listen(0);
    // The same database with a follow limit of 2: the plan limit's 403.
    capped = http.createServer(harness.app({ PREDICTIONS_MAX_FOLLOWS: '2' })).listen(0);
    const db = harness.db.dataSource;
    const docs = [
      gammaMarket('900001', 'Will the Fed cut rates in June?', { outcomePrices: '["0.615", "0.385"]', bestBid: 0.61, bestAsk: 0.62, volume24hr: 1250000 }),
      gammaMarket('900002', 'Will it snow in Paris on Christmas?'),
      gammaMarket('900003', 'Katana FDV above $1B one day after launch?', { closed: true, active: false, outcomePrices: '["1", "0"]', umaResolutionStatus: 'resolved', closedTime: '2026-03-02 16:00:00+00' }),
    ];
    await db.transaction((manager) => applyMarkets(manager, docs.map((doc) => marketContent(parseGammaMarket(doc))), { dataSource: 'import', now: new Date() }));
    await db.query(`UPDATE prediction_markets SET category = CASE polymarket_id WHEN '900002' THEN 'Weather' ELSE 'Economy' END`);
    const ids: { id: number; polymarket_id: string }[] = await db.query('SELECT id, polymarket_id FROM prediction_markets ORDER BY polymarket_id');
    [open, other, closed] = ids.map((row) => row.id) as [number, number, number];
    [ann, ben] = await Promise.all([quickUser(db, server, 'ann-predictions@example.com'), quickUser(db, server, 'ben-predictions@example.com')]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([new Promise((resolve) => server.close(resolve)), new Promise((resolve) => capped.close(resolve))]);
    await harness.stop();
  });

  it('refuses signed-out callers, and forecasts outside (0, 1), bad odds, long notes and bad confidence naming the field', async () => {
    expect((await request(server).get('/api/predictions/markets')).status).toBe(401);
    expect((await request(server).get(`/api/predictions/markets/${open}`)).status).toBe(401);
    const bad = await Promise.all([
      forecast(ann, open, { prediction: '0' }),
      forecast(ann, open, { prediction: '1' }),
      forecast(ann, open, { prediction: '100%' }),
      forecast(ann, open, { prediction: '-0.2' }),
      forecast(ann, open, { prediction: '3:0' }),
      forecast(ann, open, { prediction: 'three to two' }),
      forecast(ann, open, { prediction: '' }),
      forecast(ann, open, { prediction: '0.5', notes: 'x'.repeat(1001) }),
      forecast(ann, open, { prediction: '0.5', confidence: 101 }),
      forecast(ann, open, { prediction: '0.5', extra: true }),
    ]);
    expect(bad.map(fieldOf)).toEqual([
      [400, 'prediction'],
      [400, 'prediction'],
      [400, 'prediction'],
      [400, 'prediction'],
      [400, 'prediction'],
      [400, 'prediction'],
      [400, 'prediction'],
      [400, 'notes'],
      [400, 'confidence'],
      [400, ''],
    ]);
    expect(bad[0]!.body.error.code).toBe('validation_failed');
    // Nothing was written.
    expect(await harness.db.dataSource.query('SELECT count(*)::int AS n FROM user_predictions')).toEqual([{ n: 0 }]);
    // Bad queries name their field too.
    expect(fieldOf(await ann.agent.get('/api/predictions/markets?sort=alphabetical'))).toEqual([400, 'sort']);
    expect(fieldOf(await ann.agent.get('/api/predictions/markets?cursor=not-a-cursor'))).toEqual([400, 'cursor']);
    expect(fieldOf(await ann.agent.get('/api/predictions/mispricing?cursor=bm9wZQ'))).toEqual([400, 'cursor']);
    expect(fieldOf(await ann.agent.get('/api/predictions/forecasts?cursor=x'))).toEqual([400, 'cursor']);
  });

  it('browses the markets, opens one, forecasts as odds, edits, withdraws; unknown markets are 404, closed ones 409', async () => {
    const page = (await ann.agent.get('/api/predictions/markets').expect(200)).body as PredictionMarketsPage;
    expect(page.rows.map((row) => row.question)).toEqual(['Will the Fed cut rates in June?', 'Will it snow in Paris on Christmas?']);
    expect(page.categories).toEqual([
      { category: 'Economy', markets: 1 },
      { category: 'Weather', markets: 1 },
    ]);
    expect(page.source.kind).toBe('replay');
    const weather = (await ann.agent.get('/api/predictions/markets?category=Weather&status=all&sort=liquidity').expect(200)).body as PredictionMarketsPage;
    expect(weather.rows.map((row) => row.id)).toEqual([other]);
    const closedOnes = (await ann.agent.get('/api/predictions/markets?status=closed').expect(200)).body as PredictionMarketsPage;
    expect(closedOnes.rows.map((row) => [row.id, row.resolution])).toEqual([[closed, 'yes']]);

    const made = await forecast(ann, open, { prediction: '3:2', confidence: 70, notes: '  Polls moved  ' }).expect(201);
    const first = made.body as PredictionForecastView;
    expect(first).toMatchObject({ marketId: open, userPrediction: '0.6000', marketPrice: '0.6150', inputForm: 'odds', inputText: '3:2', confidence: 70, notes: 'Polls moved', supersededAt: null, points: null });
    const edit = (await forecast(ann, open, { prediction: 62 }).expect(201)).body as PredictionForecastView;
    expect(edit).toMatchObject({ userPrediction: '0.6200', inputForm: 'percent', inputText: '62' });

    const market = (await ann.agent.get(`/api/predictions/markets/${open}`).expect(200)).body as PredictionMarketPage;
    expect(keys(market)).toEqual(['canForecast', 'consensus', 'following', 'forecasts', 'history', 'market', 'mispricing']);
    expect(market.forecasts.map((f) => [f.userPrediction, f.supersededAt === null])).toEqual([
      ['0.6200', true],
      ['0.6000', false],
    ]);
    expect(market).toMatchObject({ canForecast: true, following: false, consensus: null, mispricing: [] });
    expect(market.market).toMatchObject({ id: open, yesPrice: '0.6150', bestBid: '0.6100', bestAsk: '0.6200', dataSource: 'import', closed: false });

    // Ben sees none of Ann's forecasts.
    expect(((await ben.agent.get(`/api/predictions/markets/${open}`).expect(200)).body as PredictionMarketPage).forecasts).toEqual([]);

    await del(ann, `/api/predictions/markets/${open}/forecasts`).expect(204);
    const withdrawn = await del(ann, `/api/predictions/markets/${open}/forecasts`);
    expect([withdrawn.status, withdrawn.body.error.code]).toEqual([404, 'no_forecast']);

    const unknown = await Promise.all([ann.agent.get('/api/predictions/markets/2147483647'), forecast(ann, 2147483647, { prediction: '0.5' }), ann.agent.get('/api/predictions/markets/abc')]);
    expect(unknown.map((res) => [res.status, res.body.error.code])).toEqual([
      [404, 'unknown_market'],
      [404, 'unknown_market'],
      [404, 'not_found'],
    ]);

    const late = await forecast(ann, closed, { prediction: '0.9' });
    expect([late.status, late.body.error.code]).toEqual([409, 'market_closed']);
    expect(((await ann.agent.get(`/api/predictions/markets/${closed}`).expect(200)).body as PredictionMarketPage).canForecast).toBe(false);
    expect((await del(ann, `/api/predictions/markets/${closed}/forecasts`)).status).toBe(409);
  });

  it('answers the performance in its shape: empty before a resolution, scored after', async () => {
    const empty = (await ben.agent.get('/api/predictions/performance').expect(200)).body as PredictionPerformanceView;
    const SHAPE = ['accuracy', 'bestCategories', 'brierScore', 'calibration', 'correctPredictions', 'decomposition', 'improvementAreas', 'lastCalculated', 'logScore', 'market', 'skill', 'totalPoints', 'totalPredictions', 'trend'];
    expect(keys(empty)).toEqual(SHAPE);
    expect(empty).toMatchObject({ totalPredictions: 0, accuracy: null, brierScore: null, lastCalculated: null });

    // Ben forecasts the Fed market at 80 %; it then closes YES (as a sync would write it) and is scored.
    await forecast(ben, open, { prediction: '80%' }).expect(201);
    const db = harness.db.dataSource;
    await db.query(`UPDATE prediction_markets SET closed = true, is_active = false, resolution = 'yes', resolved_at = now(), closed_time = now() WHERE id = $1`, [open]);
    const now = new Date();
    expect(await resolveMarketForecasts(db, open, now)).toMatchObject({ status: 'resolved', users: [ann.id, ben.id].sort((a, b) => a - b) });
    await recomputePerformance(db, ben.id, now);
    const scored = (await ben.agent.get('/api/predictions/performance').expect(200)).body as PredictionPerformanceView;
    expect(keys(scored)).toEqual(SHAPE);
    expect(scored).toMatchObject({ totalPredictions: 1, correctPredictions: 1, accuracy: 1, brierScore: expect.closeTo(0.04, 4), lastCalculated: now.toISOString() });
    expect(scored.market.brier).toBeCloseTo((1 - 0.615) ** 2, 3);
    expect(scored.skill.brier).toBeCloseTo((1 - 0.615) ** 2 - 0.04, 3);
    expect(scored.calibration).toHaveLength(10);
    expect(keys(scored.calibration[8]!)).toEqual(['count', 'from', 'high', 'low', 'meanForecast', 'observedRate', 'to']);
    const forecasts = (await ben.agent.get('/api/predictions/forecasts?status=resolved').expect(200)).body as PredictionForecastsPage;
    expect(forecasts.rows.map((row) => [row.market.id, row.resolution, row.points !== null])).toEqual([[open, 'yes', true]]);
    // Ann's scorecard is hers: not recomputed yet, still empty.
    expect(((await ann.agent.get('/api/predictions/performance').expect(200)).body as PredictionPerformanceView).totalPredictions).toBe(0);
  });

  it('answers the public research page signed out: active markets by volume, closing soon, open alerts, the community record', async () => {
    const page = (await request(server).get('/api/predictions/research').expect(200)).body as PredictionResearchView;
    expect(keys(page)).toEqual(['closingSoon', 'community', 'mispricing', 'source', 'trending']);
    // The Fed market resolved in the test before: only the snow market is still active (it ends in 2031).
    expect(page.trending.map((m) => m.id)).toEqual([other]);
    expect(page.closingSoon).toEqual([]);
    expect(page.mispricing).toEqual([]);
    // Ann and Ben both forecast the Fed market, scored at its resolution; the market stood at 0.615 for both.
    expect(page.community).toMatchObject({ forecasters: 2, questions: 2, marketBrier: expect.closeTo(0.385 ** 2, 4) });
    expect(page.community.brier).toEqual(expect.any(Number));
  });

  it('lists mispricing alerts: open or closed, by category, and on the market page', async () => {
    const db = harness.db.dataSource;
    await db.query(
      `INSERT INTO mispricing_alerts (market_id, fair_value_source, current_price, fair_value, deviation, confidence, reasoning, details, is_active, detected_at)
       VALUES ($1, 'consensus', 0.3000, 0.4000, 0.1000, 0.7000, 'Three forecasters with a good record put YES at 40 %.', '{"forecasters": 3}', true, now()),
              ($1, 'event_consistency', 0.3000, 0.2000, -0.1000, 0.5000, 'The event sums to 112 %.', '{}', false, now() - interval '1 day')`,
      [other],
    );
    const active = (await ann.agent.get('/api/predictions/mispricing').expect(200)).body as MispricingPage;
    expect(active.rows.map((row) => [row.marketId, row.fairValueSource, row.deviation, row.isActive])).toEqual([[other, 'consensus', '0.1000', true]]);
    expect(keys(active.rows[0]!)).toEqual(['category', 'confidence', 'currentPrice', 'details', 'detectedAt', 'deviation', 'fairValue', 'fairValueSource', 'id', 'isActive', 'marketId', 'question', 'reasoning', 'resolvedAt']);
    const closedAlerts = (await ann.agent.get('/api/predictions/mispricing?active=false').expect(200)).body as MispricingPage;
    expect(closedAlerts.rows.map((row) => row.fairValueSource)).toEqual(['event_consistency']);
    expect(((await ann.agent.get('/api/predictions/mispricing?category=Economy').expect(200)).body as MispricingPage).rows).toEqual([]);
    const market = (await ann.agent.get(`/api/predictions/markets/${other}`).expect(200)).body as PredictionMarketPage;
    expect(market.mispricing.map((row) => row.fairValueSource)).toEqual(['consensus']);
    expect(fieldOf(await ann.agent.get('/api/predictions/mispricing?active=yes'))).toEqual([400, 'active']);
  });

  it('follows markets and categories per user: idempotent, unknown ones 404, over the limit 403, another user’s follow 404', async () => {
    const market = (await post(ann, '/api/predictions/follows', { marketId: other }).expect(201)).body as PredictionFollowView;
    expect(market).toMatchObject({ marketId: other, question: 'Will it snow in Paris on Christmas?', category: null });
    expect(((await post(ann, '/api/predictions/follows', { marketId: other }).expect(201)).body as PredictionFollowView).id).toBe(market.id);
    const category = (await post(ann, '/api/predictions/follows', { category: 'weather' }).expect(201)).body as PredictionFollowView;
    expect(category).toMatchObject({ marketId: null, category: 'Weather' });
    expect(((await ann.agent.get(`/api/predictions/markets/${other}`).expect(200)).body as PredictionMarketPage).following).toBe(true);

    const refused = await Promise.all([
      post(ann, '/api/predictions/follows', { category: 'Astrology' }),
      post(ann, '/api/predictions/follows', { marketId: 2147483647 }),
      post(ann, '/api/predictions/follows', {}),
      post(ann, '/api/predictions/follows', { marketId: other, category: 'Weather' }),
    ]);
    expect(refused.map((res) => [res.status, res.body.error.code, res.body.error.details?.[0]?.field])).toEqual([
      [404, 'unknown_category', 'category'],
      [404, 'unknown_market', 'marketId'],
      [400, 'validation_failed', 'marketId'],
      [400, 'validation_failed', 'category'],
    ]);

    // The plan limit (2 here): a third follow is refused, an existing one still answers.
    const viaCapped = request.agent(capped);
    const token = (await viaCapped.get('/api/auth/csrf')).body.csrfToken as string;
    await viaCapped.post('/api/auth/callback/credentials').set('X-Forwarded-For', '192.0.2.77').send({ email: 'ann-predictions@example.com', password: 'correct horse battery staple', csrfToken: token, json: true }).expect(200);
    const csrf = (await viaCapped.get('/api/auth/csrf')).body.csrfToken as string;
    const third = await viaCapped.post('/api/predictions/follows').set('x-csrf-token', csrf).send({ marketId: open });
    expect([third.status, third.body.error.code]).toEqual([403, 'too_many_follows']);
    expect((await viaCapped.post('/api/predictions/follows').set('x-csrf-token', csrf).send({ marketId: other })).status).toBe(201);

    // Another user's follow id is no follow of theirs: 404, nothing removed.
    const intruded = await del(ben, `/api/predictions/follows/${market.id}`);
    expect([intruded.status, intruded.body.error.code]).toEqual([404, 'unknown_follow']);
    expect(((await ben.agent.get('/api/predictions/follows').expect(200)).body as { follows: PredictionFollowView[] }).follows).toEqual([]);
    const mine = (await ann.agent.get('/api/predictions/follows').expect(200)).body as { follows: PredictionFollowView[]; limit: number };
    expect(mine.follows.map((f) => f.id).sort()).toEqual([market.id, category.id].sort());
    expect(mine.limit).toBe(200);

    await del(ann, `/api/predictions/follows/${market.id}`).expect(204);
    expect((await del(ann, `/api/predictions/follows/${market.id}`)).status).toBe(404);
    expect((await del(ann, '/api/predictions/follows/not-an-id')).status).toBe(404);
  });
});
