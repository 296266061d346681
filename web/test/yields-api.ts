// The yields api as the web tests see it: answers typed by jobs/src/yields/yields.shapes.ts (so a
// change of the shapes fails the typecheck here), with pools, APYs and score parts in the manner of
// DefiLlama's /pools answer (../shared/fixtures/yields) and the score components as the analytics
// write them. A request with no answer fails the test loudly instead of being answered with made-up data.
import type { NotificationChannelsResponse, TelegramStatusResponse } from '@tickerbell/jobs/notifications/shapes';
import type {
  YieldAlertHistoryPage,
  YieldAlertView,
  YieldAlertsPage,
  YieldPoolPage,
  YieldPoolRow,
  YieldPoolsPage,
  YieldScoreBreakdown,
  YieldSeriesPoint,
  YieldSnapshotView,
  YieldTopPage,
  YieldsSourceView,
} from '@tickerbell/jobs/yields/shapes';
import type { FakeHandler, FakeReply } from './fake-fetch';

export const NOW = '2026-03-11T12:00:00.000Z';

export const SOURCE: YieldsSourceView = {
  kind: 'replay',
  lastSnapshotAt: '2026-03-11T11:00:00.000Z',
  poolsKnown: 15230,
  poolsTracked: 512,
  sources: [
    { source: 'defillama-yields', lastSuccessAt: '2026-03-11T11:00:00.000Z', lastErrorAt: null, lastError: null, consecutiveFailures: 0 },
    { source: 'uniswap-subgraph', lastSuccessAt: '2026-03-11T11:00:00.000Z', lastErrorAt: null, lastError: null, consecutiveFailures: 0 },
  ],
  note: 'DefiLlama yields (offline replay: simulated values in its published shape) and the Uniswap v3 subgraph (offline replay built from recorded March 2022 answers).',
};

export const SCORE: YieldScoreBreakdown = {
  total: 71.4,
  components: [
    { name: 'feeApr', label: 'Fee APR', weight: 25, input: 14.2, score: 0.71, points: 17.75, explanation: 'Our fee APR 14.2 %; full marks at 20 %.' },
    { name: 'vtr', label: 'Volume / TVL', weight: 10, input: 0.31, score: 0.7561, points: 7.56, explanation: 'Daily volume is 0.31 x TVL; half marks at 0.1.' },
    { name: 'tvlStability', label: 'TVL stability (30 d)', weight: 20, input: 0.06, score: 0.88, points: 17.6, explanation: 'Daily TVL varies by 6 % of its mean; 0 at 50 %.' },
    { name: 'muSigma', label: 'Consistency (mu / sigma)', weight: 10, input: 0.4, score: 0.7143, points: 7.14, explanation: "DefiLlama's sigma is 0.4 x its mu; scored 1 / (1 + sigma / mu)." },
    { name: 'outlier', label: 'Not an outlier', weight: 10, input: 0, score: 1, points: 10, explanation: 'Within the median +- 1.5 IQR of all pools.' },
    { name: 'rewardShare', label: 'Organic share of APY', weight: 15, input: 0.6, score: 0.4, points: 6, explanation: '60 % of the APY is token rewards; scored 1 - that share.' },
    { name: 'mean30d', label: 'Close to its 30-day mean', weight: 10, input: null, score: null, points: 0, explanation: 'Under 7 days of APR history.' },
  ],
};

const row = (fields: Partial<YieldPoolRow> & Pick<YieldPoolRow, 'id' | 'symbol'>): YieldPoolRow => ({
  poolId: `747c1d2a-c668-4682-b9f9-296708a3dd${String(fields.id).padStart(2, '0')}`,
  chain: 'Ethereum',
  dex: 'uniswap-v3',
  feeTier: 500,
  stablecoin: false,
  ilRisk: 'yes',
  exposure: 'multi',
  tracked: true,
  tvlUsd: '182400000',
  apr: '14.2',
  aprSource: 'computed',
  defillamaApy: '13.8',
  aprDisagrees: false,
  vtr: '0.31',
  yieldScore: '71.4',
  asOf: '2026-03-11T11:00:00.000Z',
  ...fields,
});

export const USDC_WETH = row({ id: 11, symbol: 'USDC-WETH' });
export const CURVE = row({ id: 12, symbol: 'DAI-USDC-USDT', dex: 'curve-dex', feeTier: null, stablecoin: true, ilRisk: 'no', tvlUsd: '164000000', apr: '2.9', defillamaApy: '2.95', vtr: '0.04', yieldScore: '58' });
export const ARB = row({ id: 13, symbol: 'WETH-ARB', chain: 'Arbitrum', feeTier: 3000, tracked: false, tvlUsd: '2100000', apr: '35.1', aprSource: 'defillama', defillamaApy: '35.1', aprDisagrees: null, vtr: null, yieldScore: null });
export const PEPE = row({ id: 14, symbol: 'PEPE-WETH', feeTier: 10000, tvlUsd: '1450000', apr: '212.5', defillamaApy: '96.3', aprDisagrees: true, vtr: '2.4', yieldScore: '22.5' });

export const POOLS_PAGE: YieldPoolsPage = { rows: [USDC_WETH, CURVE, ARB], nextCursor: '2100000~13', source: SOURCE };
export const POOLS_MORE: YieldPoolsPage = { rows: [PEPE], nextCursor: null, source: SOURCE };
export const POOLS_BY_APR: YieldPoolsPage = { rows: [PEPE, ARB, USDC_WETH, CURVE], nextCursor: null, source: SOURCE };
export const POOLS_STABLE_ETH: YieldPoolsPage = { rows: [CURVE], nextCursor: null, source: SOURCE };
export const POOLS_NONE: YieldPoolsPage = { rows: [], nextCursor: null, source: { ...SOURCE, kind: 'live', lastSnapshotAt: null, poolsKnown: 0, poolsTracked: 0, note: 'DefiLlama yields and the Uniswap v3 subgraph (live).' } };

export const LATEST: YieldSnapshotView = {
  id: '90211',
  timestamp: '2026-03-11T11:00:00.000Z',
  dataSource: 'uniswap-subgraph',
  tvlUsd: '182400000',
  volumeUsd: '56544000',
  volumeUsd7d: '391200000',
  feesUsd: '28272',
  apr: '14.2',
  aprSource: 'computed',
  feeApr24h: '5.66',
  feeApr7d: '6.1',
  feeApr30d: '5.9',
  vtr: '0.31',
  yieldScore: '71.4',
  defillamaApy: '13.8',
  apyBase: '5.52',
  apyReward: '8.28',
  apyMean30d: '12.9',
  aprMean30d: '13.6',
  aprSigma30d: '1.2',
  mu: '12.7',
  sigma: '5.08',
  outlier: false,
  il7d: '-0.42',
  aprDisagrees: false,
  prediction: { predictedClass: 'Stable/Up', predictedProbability: 74, binnedConfidence: 3 },
  score: SCORE,
};

export const SERIES: YieldSeriesPoint[] = Array.from({ length: 30 }, (_, i) => {
  const day = new Date(Date.parse('2026-02-10T11:00:00.000Z') + i * 86_400_000).toISOString();
  return {
    timestamp: day,
    tvlUsd: String(170_000_000 + i * 400_000),
    volumeUsd: String(50_000_000 + (i % 5) * 2_000_000),
    feesUsd: String(25_000 + (i % 5) * 1_000),
    apr: String(13 + (i % 4) * 0.4),
    feeApr24h: String(5.4 + (i % 4) * 0.1),
    defillamaApy: String(12.8 + (i % 3) * 0.3),
    yieldScore: '70',
    dataSource: 'uniswap-subgraph',
  };
});

export const ALERT: YieldAlertView = {
  id: 301,
  poolId: 11,
  pool: { id: 11, poolId: USDC_WETH.poolId, symbol: 'USDC-WETH', chain: 'Ethereum', dex: 'uniswap-v3' },
  alertType: 'apr',
  condition: 'greater_than',
  kind: 'apr_above',
  threshold: '20',
  spikeUnit: null,
  windowHours: null,
  cooldownMinutes: 360,
  isActive: true,
  emailEnabled: false,
  telegramEnabled: false,
  armed: true,
  hysteresisMargin: '2',
  lastTriggered: null,
  description: 'APR above 20 %',
  createdAt: '2026-03-10T09:00:00.000Z',
  updatedAt: '2026-03-10T09:00:00.000Z',
};

export const DROP_ALERT: YieldAlertView = {
  ...ALERT,
  id: 302,
  poolId: 12,
  pool: { id: 12, poolId: CURVE.poolId, symbol: 'DAI-USDC-USDT', chain: 'Ethereum', dex: 'curve-dex' },
  alertType: 'tvl_drop',
  kind: 'tvl_drop',
  threshold: '15',
  windowHours: 24,
  armed: false,
  hysteresisMargin: '1.5',
  lastTriggered: '2026-03-11T10:00:00.000Z',
  description: 'TVL down 15 % within 24 h',
};

export const CREATED: YieldAlertView = { ...ALERT, id: 303, kind: 'apr_below', condition: 'less_than', threshold: '4.5', description: 'APR below 4.5 %', emailEnabled: false };

export const POOL_PAGE: YieldPoolPage = {
  pool: {
    ...USDC_WETH,
    token0: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    token1: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    token0Symbol: 'USDC',
    token1Symbol: 'WETH',
    underlyingTokens: ['0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'],
    poolAddress: '0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640',
    poolMeta: '0.05%',
    isActive: true,
  },
  latest: LATEST,
  series: SERIES,
  alerts: [ALERT],
  source: SOURCE,
};

export const ALERTS_PAGE: YieldAlertsPage = { rows: [ALERT, DROP_ALERT], channels: { email: false, telegram: true } };

export const HISTORY: YieldAlertHistoryPage = {
  rows: [
    {
      id: 9001,
      alertId: 302,
      poolId: 12,
      poolSymbol: 'DAI-USDC-USDT',
      kind: 'tvl_drop',
      triggeredAt: '2026-03-11T10:00:00.000Z',
      triggeredValue: '17.2',
      threshold: '15',
      yieldDataId: '90100',
      message: 'DAI-USDC-USDT (curve-dex, Ethereum): TVL down 17.2 % within 24 h (your threshold 15 %).',
      emailSent: false,
      telegramSent: true,
    },
  ],
  nextCursor: '1773219600000.9001',
};
export const HISTORY_OLDER: YieldAlertHistoryPage = {
  rows: [{ ...HISTORY.rows[0]!, id: 8999, alertId: 301, poolId: 11, poolSymbol: 'USDC-WETH', kind: 'apr_above', triggeredAt: '2026-03-02T08:00:00.000Z', triggeredValue: '21.4', threshold: '20', message: 'USDC-WETH (uniswap-v3, Ethereum): APR 21.4 %, above your 20 %.', telegramSent: false }],
  nextCursor: null,
};

export const TOP_PAGE: YieldTopPage = { rows: [{ ...USDC_WETH, score: SCORE }, { ...CURVE, score: { ...SCORE, total: 58 } }], source: SOURCE };

export const TELEGRAM_UNLINKED: TelegramStatusResponse = { configured: true, botUsername: 'tickerbell_bot', linked: false, chatUsername: null, linkedAt: null };
export const CHANNELS: NotificationChannelsResponse = { email: { configured: false }, telegram: { configured: true } };

const THRESHOLD_REFUSED: FakeReply = {
  status: 400,
  body: { error: { code: 'validation_failed', message: 'Invalid input: threshold', details: [{ field: 'threshold', message: 'threshold must be from 0 to 100000 for apr' }] } },
};

/** `METHOD /path?sorted=query`. */
export function yieldsRequestKey(method: string, path: string): string {
  const url = new URL(path, 'http://localhost');
  const params = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(params).toString();
  return `${method} ${decodeURIComponent(url.pathname)}${query ? `?${decodeURIComponent(query)}` : ''}`;
}

/** The default answers, by request; a test puts its own before them (`first` wins). */
export const YIELDS_ANSWERS: Readonly<Record<string, FakeReply>> = {
  'GET /api/yields/pools': { status: 200, body: POOLS_PAGE },
  'GET /api/yields/pools?cursor=2100000~13': { status: 200, body: POOLS_MORE },
  'GET /api/yields/pools?sort=apr': { status: 200, body: POOLS_BY_APR },
  'GET /api/yields/pools?chain=Ethereum&stablecoin=true': { status: 200, body: POOLS_STABLE_ETH },
  'GET /api/yields/pools/11': { status: 200, body: POOL_PAGE },
  'GET /api/yields/pools/11/series?days=90': { status: 200, body: { poolId: 11, days: 90, points: SERIES } },
  'GET /api/yields/pools/999': { status: 404, body: { error: { code: 'not_found', message: 'No such pool' } } },
  'GET /api/yields/top?limit=20': { status: 200, body: TOP_PAGE },
  'GET /api/yields/alerts': { status: 200, body: ALERTS_PAGE },
  'GET /api/yields/alerts/history?limit=50': { status: 200, body: HISTORY },
  'GET /api/yields/alerts/history?cursor=1773219600000.9001&limit=50': { status: 200, body: HISTORY_OLDER },
  'GET /api/notifications/telegram': { status: 200, body: TELEGRAM_UNLINKED },
  'GET /api/notifications/channels': { status: 200, body: CHANNELS },
  'POST /api/yields/alerts': { status: 201, body: CREATED },
  'PATCH /api/yields/alerts/301': { status: 200, body: { ...ALERT, isActive: false } },
  'DELETE /api/yields/alerts/302': { status: 204 },
};

export const YIELDS_VARIANTS = {
  poolsNone: { 'GET /api/yields/pools': { status: 200, body: POOLS_NONE } },
  thresholdRefused: { 'POST /api/yields/alerts': [THRESHOLD_REFUSED, { status: 201, body: CREATED }] },
  poolsDown: { 'GET /api/yields/pools?token=USDC': { status: 503, body: { error: { code: 'unavailable', message: 'The database is not reachable' } } } },
} satisfies Record<string, Record<string, FakeReply | FakeReply[]>>;

/**
 * Answers the yields requests (and the two notification answers the alert dialog reads); other
 * /api/yields requests throw, anything else is a 404. A test's answers come before the defaults,
 * and a list of answers for one request is used one per call.
 */
export function yieldsApi(first: Record<string, FakeReply | FakeReply[]> = {}): FakeHandler & { calls: string[]; bodies: Record<string, unknown[]> } {
  const queued = new Map<string, FakeReply[]>();
  for (const [key, value] of Object.entries(first)) queued.set(key, Array.isArray(value) ? [...value] : [value]);
  const calls: string[] = [];
  const bodies: Record<string, unknown[]> = {};
  const handler = (path: string, init?: RequestInit): FakeReply => {
    const method = init?.method ?? 'GET';
    const key = yieldsRequestKey(method, path);
    calls.push(key);
    if (typeof init?.body === 'string') (bodies[key] ??= []).push(JSON.parse(init.body));
    const mine = queued.get(key);
    if (mine?.length) return mine.length > 1 ? mine.shift()! : mine[0]!;
    const answer = YIELDS_ANSWERS[key];
    if (answer) return answer;
    if (key.includes('/api/yields') || key.includes('/api/notifications/telegram') || key.includes('/api/notifications/channels')) throw new Error(`no recorded yields answer for ${key}`);
    return { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
  };
  return Object.assign(handler, { calls, bodies });
}
