import http from 'node:http';
import request from 'supertest';
import { fixedClock } from '@tickerbell/jobs';
import { yieldScore } from '@tickerbell/jobs/yields';
import type {
  YieldAlertHistoryPage,
  YieldAlertView,
  YieldAlertsPage,
  YieldPoolPage,
  YieldPoolsPage,
  YieldSeriesPage,
  YieldTopPage,
} from '@tickerbell/jobs/yields/shapes';
import { AccountsHarness } from '../support/accounts-harness';
import { quickUser, type SignedIn } from '../support/route-requests';

const NOW = new Date('2026-03-11T12:00:00.000Z');
const DAY = 86_400_000;
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';

interface PoolSeed {
  key: string;
  chain: string;
  dex: string;
  symbol: string;
  tokens: [string, string];
  tvl: number;
  apy: number | null;
  stablecoin?: boolean;
  tracked?: boolean;
  active?: boolean;
  /** Snapshots (tracked pools): APR and score of the newest, older days derived from it. */
  apr?: number;
  score?: number;
}

const POOLS: PoolSeed[] = [
  { key: 'weth-usdc', chain: 'Ethereum', dex: 'uniswap-v3', symbol: 'USDC-WETH', tokens: ['USDC', 'WETH'], tvl: 50_000_000, apy: 18, tracked: true, apr: 20, score: 80 },
  { key: 'curve-3pool', chain: 'Ethereum', dex: 'curve-dex', symbol: 'DAI-USDC-USDT', tokens: ['DAI', 'USDC'], tvl: 200_000_000, apy: 4, stablecoin: true, tracked: true, apr: 4, score: 60 },
  { key: 'arb-weth', chain: 'Arbitrum', dex: 'uniswap-v3', symbol: 'WETH-ARB', tokens: ['WETH', 'ARB'], tvl: 2_000_000, apy: 35 },
  { key: 'lido', chain: 'Ethereum', dex: 'lido', symbol: 'STETH', tokens: ['STETH', ''], tvl: 500_000, apy: 3, tracked: true, apr: 3, score: 90 },
  { key: 'gone', chain: 'Ethereum', dex: 'uniswap-v3', symbol: 'OLD-WETH', tokens: ['OLD', 'WETH'], tvl: 900_000_000, apy: 50, active: false },
];

/** The yields api through the real app (sessions, CSRF, PostgreSQL); pools and snapshots written as the ingest writes them. */
describe('yields api (real app, signed-in users)', () => {
  const harness = new AccountsHarness();
  const clock = fixedClock(NOW);
  let server: http.Server;
  let ann: SignedIn;
  let ben: SignedIn;
  const ids: Record<string, number> = {};

  async function seedPool(seed: PoolSeed): Promise<void> {
    const db = harness.db.dataSource;
    const underlying = seed.key === 'weth-usdc' ? [USDC, '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'] : [];
    const [pool]: { id: number }[] = await db.query(
      `INSERT INTO yield_pools (pool_id, defillama_pool_id, symbol, token0, token1, token0_symbol, token1_symbol, fee_tier, dex, project, chain,
         underlying_tokens, stablecoin, il_risk, exposure, tracked, tvl_usd, apy, last_seen_at, is_active)
       VALUES ($1, $1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11, 'no', 'multi', $12, $13, $14, $15, $16) RETURNING id`,
      [
        `00000000-0000-4000-8000-${seed.key.padStart(12, '0').slice(-12)}`,
        seed.symbol,
        underlying[0] ?? '',
        underlying[1] ?? '',
        seed.tokens[0],
        seed.tokens[1],
        seed.dex === 'uniswap-v3' ? 500 : 0,
        seed.dex,
        seed.chain,
        JSON.stringify(underlying),
        seed.stablecoin ?? false,
        seed.tracked ?? false,
        seed.tvl,
        seed.apy,
        NOW,
        seed.active ?? true,
      ],
    );
    ids[seed.key] = pool.id;
    if (!seed.tracked || seed.apr === undefined) return;
    let latest = '';
    for (let day = 2; day >= 0; day--) {
      const score = yieldScore({ feeApr: seed.apr, apyBase: null, vtr: 0.2, tvlCv: 0.05, mu: 5, sigma: 1, outlier: false, apy: seed.apy, apyReward: 1, apr: seed.apr, mean30d: seed.apr });
      const [row]: { id: string }[] = await db.query(
        `INSERT INTO yield_data (pool_id, timestamp, tvl_usd, volume_usd, fees_usd, apr, apr_source, fee_apr24h, fee_apr7d, fee_apr30d, vtr, yield_score,
           defillama_apy, apy_base, apy_reward, apr_disagrees, score_components, data_source)
         VALUES ($1, $2, $3, $4, $5, $6, 'computed', $6, $6, $6, 0.2, $7, $8, $8, 1, false, $9, 'defillama') RETURNING id::text AS id`,
        [pool.id, new Date(NOW.getTime() - day * DAY - 3_600_000), seed.tvl - day * 1000, seed.tvl * 0.2, (seed.tvl * seed.apr) / 36500, seed.apr, seed.score, seed.apy, JSON.stringify(score.components)],
      );
      latest = row.id;
    }
    await db.query(`UPDATE yield_pools SET latest_data_id = $2 WHERE id = $1`, [pool.id, latest]);
  }

  const post = (who: SignedIn, body: unknown) => who.agent.post('/api/yields/alerts').set('x-csrf-token', who.csrf).send(body as object);
  const patch = (who: SignedIn, id: number, body: unknown) => who.agent.patch(`/api/yields/alerts/${id}`).set('x-csrf-token', who.csrf).send(body as object);
  const pools = async (who: SignedIn, query: string) => (await who.agent.get(`/api/yields/pools${query}`).expect(200)).body as YieldPoolsPage;
  const symbols = (page: YieldPoolsPage) => page.rows.map((r) => r.symbol);
  const fieldOf = (res: request.Response) => [res.status, res.body.error?.details?.[0]?.field];

  beforeAll(async () => {
    await harness.start();
    server = http.createServer(harness.app({}, clock)).listen(0);
    [ann, ben] = await Promise.all([quickUser(harness.db.dataSource, server, 'ann-yields@example.com'), quickUser(harness.db.dataSource, server, 'ben-yields@example.com')]);
    for (const seed of POOLS) await seedPool(seed);
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  });

  it('lists active pools with filters, the three sorts and cursor pages; 400 naming the field', async () => {
    const all = await pools(ann, '');
    // Default sort TVL, descending; the inactive pool is left out; an untracked pool shows DefiLlama's values.
    expect(symbols(all)).toEqual(['DAI-USDC-USDT', 'USDC-WETH', 'WETH-ARB', 'STETH']);
    expect(all.rows[1]).toMatchObject({ id: ids['weth-usdc'], chain: 'Ethereum', dex: 'uniswap-v3', tracked: true, tvlUsd: '50000000', apr: '20', aprSource: 'computed', yieldScore: '80', feeTier: 500 });
    expect(all.rows[2]).toMatchObject({ tracked: false, tvlUsd: '2000000', apr: '35', aprSource: 'defillama', yieldScore: null });
    expect(all.nextCursor).toBeNull();
    expect(all.source).toMatchObject({ poolsKnown: 4, poolsTracked: 3 });

    expect(symbols(await pools(ann, '?chain=arbitrum'))).toEqual(['WETH-ARB']);
    expect(symbols(await pools(ann, '?dex=CURVE-DEX'))).toEqual(['DAI-USDC-USDT']);
    expect(symbols(await pools(ann, '?token=usdc'))).toEqual(['DAI-USDC-USDT', 'USDC-WETH']);
    expect(symbols(await pools(ann, `?token=${USDC.toUpperCase().replace('0X', '0x')}`))).toEqual(['USDC-WETH']);
    expect(symbols(await pools(ann, '?stablecoin=true'))).toEqual(['DAI-USDC-USDT']);
    expect(symbols(await pools(ann, '?minTvl=10000000'))).toEqual(['DAI-USDC-USDT', 'USDC-WETH']);
    expect(symbols(await pools(ann, '?sort=apr'))).toEqual(['WETH-ARB', 'USDC-WETH', 'DAI-USDC-USDT', 'STETH']);
    // Pools without a score come last.
    expect(symbols(await pools(ann, '?sort=score'))).toEqual(['STETH', 'USDC-WETH', 'DAI-USDC-USDT', 'WETH-ARB']);

    const first = await pools(ann, '?sort=score&limit=3');
    expect(symbols(first)).toEqual(['STETH', 'USDC-WETH', 'DAI-USDC-USDT']);
    const second = await pools(ann, `?sort=score&limit=3&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect([symbols(second), second.nextCursor]).toEqual([['WETH-ARB'], null]);

    const bad = await Promise.all(
      ['?sort=volume', '?minTvl=-5', '?limit=0', '?cursor=nope', '?cursor=1~99999999999', '?stablecoin=yes', "?token=a'b", '?chain=x&chain=y', '?colour=red'].map((q) => ann.agent.get(`/api/yields/pools${q}`)),
    );
    expect(bad.map(fieldOf)).toEqual([
      [400, 'sort'],
      [400, 'minTvl'],
      [400, 'limit'],
      [400, 'cursor'],
      [400, 'cursor'],
      [400, 'stablecoin'],
      [400, 'token'],
      [400, 'chain'],
      [400, ''],
    ]);
    expect((await request(server).get('/api/yields/pools')).status).toBe(401);
  });

  it("serves a pool's page with its score breakdown and series, and the public top pools", async () => {
    const page = (await ann.agent.get(`/api/yields/pools/${ids['weth-usdc']}`).expect(200)).body as YieldPoolPage;
    expect(page.pool).toMatchObject({ symbol: 'USDC-WETH', token0Symbol: 'USDC', underlyingTokens: [USDC, '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'], isActive: true });
    expect(page.latest).toMatchObject({ apr: '20', feeApr24h: '20', feeApr7d: '20', feeApr30d: '20', defillamaApy: '18', aprDisagrees: false, yieldScore: '80' });
    expect(page.latest?.score?.components.map((c) => c.name)).toEqual(['feeApr', 'vtr', 'tvlStability', 'muSigma', 'outlier', 'rewardShare', 'mean30d']);
    expect(page.series.map((p) => p.tvlUsd)).toEqual(['49998000', '49999000', '50000000']);
    expect(page.alerts).toEqual([]);

    const series = (await ann.agent.get(`/api/yields/pools/${ids['weth-usdc']}/series?days=1`).expect(200)).body as YieldSeriesPage;
    expect([series.days, series.points.length]).toEqual([1, 1]);
    expect(fieldOf(await ann.agent.get(`/api/yields/pools/${ids['weth-usdc']}/series?days=91`))).toEqual([400, 'days']);
    expect((await ann.agent.get('/api/yields/pools/2147483647')).status).toBe(404);
    expect((await ann.agent.get('/api/yields/pools/abc')).status).toBe(404);

    // Public: tracked pools of $1M or more with a score, best first (the $500K one is left out).
    const top = (await request(server).get('/api/yields/top').expect(200)).body as YieldTopPage;
    expect(top.rows.map((r) => [r.symbol, r.score?.total])).toEqual([
      ['USDC-WETH', 80],
      ['DAI-USDC-USDT', 60],
    ]);
    expect(top.rows[0].score?.components).toHaveLength(7);
    expect(fieldOf(await request(server).get('/api/yields/top?limit=51'))).toEqual([400, 'limit']);
  });

  it('creates, lists, edits and deletes alerts; refuses bad input naming the field and another user’s ids with 404', async () => {
    const poolId = ids['weth-usdc'];
    const bad = await Promise.all([
      post(ann, { poolId, alertType: 'apr', threshold: 'lots' }),
      post(ann, { poolId, alertType: 'apr', threshold: 200_000 }),
      post(ann, { poolId, alertType: 'price', threshold: 1 }),
      post(ann, { poolId: 2147483647, alertType: 'apr', threshold: 1 }),
      post(ann, { poolId: ids.gone, alertType: 'apr', threshold: 1 }),
      post(ann, { poolId, alertType: 'apy_spike', condition: 'less_than', threshold: 2 }),
      post(ann, { poolId, alertType: 'apr', threshold: 5, windowHours: 24 }),
      post(ann, { poolId, alertType: 'tvl_drop', threshold: 10, windowHours: 0 }),
      post(ann, { poolId, alertType: 'apr', threshold: 5, cooldownMinutes: 1.5 }),
      post(ann, { poolId: '1', alertType: 'apr', threshold: 5 }),
      post(ann, { poolId, alertType: 'apr', threshold: 5, emailEnabled: 'yes' }),
    ]);
    expect(bad.map(fieldOf)).toEqual([
      [400, 'threshold'],
      [400, 'threshold'],
      [400, 'alertType'],
      [400, 'poolId'],
      [400, 'poolId'],
      [400, 'condition'],
      [400, 'windowHours'],
      [400, 'windowHours'],
      [400, 'cooldownMinutes'],
      [400, 'poolId'],
      [400, 'emailEnabled'],
    ]);

    const created = (await post(ann, { poolId, alertType: 'apr', threshold: '25', emailEnabled: true }).expect(201)).body as YieldAlertView;
    expect(created).toMatchObject({ poolId, kind: 'apr_above', condition: 'greater_than', threshold: '25', cooldownMinutes: 360, isActive: true, emailEnabled: true, telegramEnabled: false, armed: true, description: 'APR above 25 %' });
    expect(created.pool).toMatchObject({ id: poolId, symbol: 'USDC-WETH', chain: 'Ethereum', dex: 'uniswap-v3' });
    const drop = (await post(ann, { poolId: ids['arb-weth'], alertType: 'tvl_drop', threshold: 20, windowHours: 6 }).expect(201)).body as YieldAlertView;
    expect(drop).toMatchObject({ kind: 'tvl_drop', windowHours: 6, description: 'TVL down 20 % within 6 h' });
    // An alert makes its pool tracked from the next snapshot on.
    expect((await pools(ann, '?chain=Arbitrum')).rows[0].tracked).toBe(true);

    const list = (await ann.agent.get('/api/yields/alerts').expect(200)).body as YieldAlertsPage;
    expect(list.rows.map((a) => a.id)).toEqual([drop.id, created.id]);
    expect(list.channels).toEqual({ email: false, telegram: false });
    expect(((await ann.agent.get(`/api/yields/pools/${poolId}`).expect(200)).body as YieldPoolPage).alerts.map((a) => a.id)).toEqual([created.id]);

    const edited = (await patch(ann, created.id, { alertType: 'apr', condition: 'less_than', threshold: 2.5, cooldownMinutes: 60 }).expect(200)).body as YieldAlertView;
    expect(edited).toMatchObject({ kind: 'apr_below', threshold: '2.5', cooldownMinutes: 60, description: 'APR below 2.5 %' });
    expect(fieldOf(await patch(ann, created.id, { poolId: ids['curve-3pool'] }))).toEqual([400, 'poolId']);
    expect(fieldOf(await patch(ann, created.id, { threshold: -1 }))).toEqual([400, 'threshold']);

    // Ben: none of Ann's alerts, by any route.
    expect((await patch(ben, created.id, { isActive: false })).status).toBe(404);
    expect((await ben.agent.delete(`/api/yields/alerts/${created.id}`).set('x-csrf-token', ben.csrf)).status).toBe(404);
    expect((await ben.agent.get(`/api/yields/alerts/history?alertId=${created.id}`)).status).toBe(404);
    expect(((await ben.agent.get('/api/yields/alerts').expect(200)).body as YieldAlertsPage).rows).toEqual([]);
    expect(((await ben.agent.get(`/api/yields/pools/${poolId}`).expect(200)).body as YieldPoolPage).alerts).toEqual([]);
    expect(((await ann.agent.get('/api/yields/alerts').expect(200)).body as YieldAlertsPage).rows.find((a) => a.id === created.id)?.isActive).toBe(true);

    await ann.agent.delete(`/api/yields/alerts/${drop.id}`).set('x-csrf-token', ann.csrf).expect(204);
    expect((await ann.agent.delete(`/api/yields/alerts/${drop.id}`).set('x-csrf-token', ann.csrf)).status).toBe(404);
    expect((await patch(ann, 0, { isActive: false })).status).toBe(404);
  });

  it('pages the alert history newest first, of every alert or one', async () => {
    const alert = (await post(ann, { poolId: ids['curve-3pool'], alertType: 'vtr', threshold: 0.1 }).expect(201)).body as YieldAlertView;
    await harness.db.dataSource.query(
      `INSERT INTO yield_alert_logs (alert_id, triggered_at, triggered_value, threshold, message, email_sent)
       SELECT $1, $2::timestamptz + make_interval(hours => g), 0.2 + g / 100.0, 0.1, 'DAI-USDC-USDT (curve-dex, Ethereum): volume/TVL above your 0.1.', g = 2 FROM generate_series(0, 2) g`,
      [alert.id, new Date(NOW.getTime() - 5 * 3_600_000)],
    );
    const first = (await ann.agent.get(`/api/yields/alerts/history?alertId=${alert.id}&limit=2`).expect(200)).body as YieldAlertHistoryPage;
    expect(first.rows.map((r) => [r.triggeredValue, r.emailSent, r.kind, r.poolSymbol])).toEqual([
      ['0.22', true, 'vtr_above', 'DAI-USDC-USDT'],
      ['0.21', false, 'vtr_above', 'DAI-USDC-USDT'],
    ]);
    const rest = (await ann.agent.get(`/api/yields/alerts/history?limit=2&cursor=${first.nextCursor}`).expect(200)).body as YieldAlertHistoryPage;
    expect([rest.rows.map((r) => r.triggeredValue), rest.nextCursor]).toEqual([['0.2'], null]);
    expect(((await ben.agent.get('/api/yields/alerts/history').expect(200)).body as YieldAlertHistoryPage).rows).toEqual([]);
    expect(fieldOf(await ann.agent.get('/api/yields/alerts/history?cursor=x'))).toEqual([400, 'cursor']);
    expect(fieldOf(await ann.agent.get('/api/yields/alerts/history?cursor=1.99999999999'))).toEqual([400, 'cursor']);
  });

  it('says which channels the server has: email with SMTP, Telegram with a bot token', async () => {
    const app = harness.app({ SMTP_URL: 'smtp://localhost:2525', TELEGRAM_BOT_TOKEN: `123456:${'A'.repeat(35)}`, TELEGRAM_BOT_USERNAME: 'tickerbell_bot' }, clock);
    const configured = http.createServer(app).listen(0);
    try {
      const cat = await quickUser(harness.db.dataSource, configured, 'cat-yields@example.com');
      const res = await cat.agent.get('/api/yields/alerts').expect(200);
      expect((res.body as YieldAlertsPage).channels).toEqual({ email: true, telegram: true });
    } finally {
      await new Promise((resolve) => configured.close(resolve));
    }
  });
});
