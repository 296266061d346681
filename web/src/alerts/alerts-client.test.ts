// The client's parsers against the api's own view functions (jobs/src/alerts/alert-view.ts, pure):
// if the api's shape changes, these fail instead of the screens silently showing less.
import { toCheckedAlert, toClientAlert, toClientAlertLog, type AlertViewRow } from '../../../jobs/src/alerts/alert-view';
import { parseMarkets } from '../prices/markets-client';
import { ALERT_CONDITION_TYPES, type AlertCondition } from '@tickerbell/jobs/alerts/shapes';
import { conditionSummary } from './alert-conditions';
import { parseAlertBody, parseAlertList, parseAlertPage, parseAlertLogPage, parseCheckResponse, parseCondition } from './alerts-client';

const row: AlertViewRow = {
  id: 12,
  user_id: 3,
  name: 'BTC channel',
  symbol: 'BTCUSDT',
  market_type: 'crypto',
  condition: 'exiting_channel',
  value: '60000.0000000000',
  params: { type: 'exiting_channel', low: '60000', high: '72000.5' },
  interval: null,
  frequency: 'every_time',
  cooldown_seconds: 90,
  expires_at: new Date('2099-01-01T00:00:00Z'),
  is_active: true,
  use_audio: true,
  audio_message: 'Bitcoin left its channel',
  audio_voice_id: 'Samantha',
  notify_push: false,
  notify_email: true,
  webhook_url: 'https://hooks.example.com/x',
  webhook_secret: 'f'.repeat(64),
  last_triggered: new Date('2026-11-21T09:30:00Z'),
  created_at: new Date('2026-11-20T10:00:00Z'),
  updated_at: new Date('2026-11-21T09:30:00Z'),
};

describe('alerts client parsers', () => {
  it('read an alert exactly as the api writes it, in the list and alone', () => {
    const expected = {
      id: '12',
      name: 'BTC channel',
      symbol: 'BTCUSDT',
      marketType: 'crypto',
      condition: { type: 'exiting_channel', low: '60000', high: '72000.5' },
      conditionType: 'exiting_channel',
      interval: null,
      frequency: 'every_time',
      cooldownSeconds: 90,
      expiresAt: '2099-01-01T00:00:00.000Z',
      isActive: true,
      useAudio: true,
      audioMessage: 'Bitcoin left its channel',
      audioVoiceId: 'Samantha',
      notifyPush: false,
      notifyEmail: true,
      webhookUrl: 'https://hooks.example.com/x',
      webhookSecret: 'f'.repeat(64),
      lastTriggered: '2026-11-21T09:30:00.000Z',
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-21T09:30:00.000Z',
    };
    expect(parseAlertList(JSON.parse(JSON.stringify({ alerts: [toClientAlert(row)] })))).toEqual([expected]);
    expect(parseAlertBody(JSON.parse(JSON.stringify({ alert: toClientAlert(row) })))).toEqual(expected);
  });

  it('read a page of firings and its cursor', () => {
    const log = toClientAlertLog({
      id: '981',
      triggered_at: new Date('2026-11-21T09:30:00Z'),
      value: '72001.2500000000',
      message: 'BTC channel: BTCUSDT left 60000–72000.5 at 72001.25',
      was_notified: true,
      webhook_status: 'failed',
      webhook_attempts: 6,
      webhook_last_error: 'HTTP 502',
    });
    expect(parseAlertLogPage(JSON.parse(JSON.stringify({ logs: [log], nextBefore: '981' })), 20)).toEqual({
      items: [{ id: '981', triggeredAt: '2026-11-21T09:30:00.000Z', value: '72001.25', message: log.message, wasNotified: true, webhookStatus: 'failed', webhookAttempts: 6, webhookLastError: 'HTTP 502' }],
      nextBefore: '981',
    });
    expect(parseAlertLogPage({ logs: [], nextBefore: null }, 20).nextBefore).toBeNull();
  });

  it('read the check answer with its log id and voice', () => {
    const entry = toCheckedAlert({
      log_id: '981',
      triggered_at: new Date('2026-11-21T09:30:00Z'),
      log_value: '72001.25',
      message: null,
      alert_id: 12,
      name: 'BTC channel',
      symbol: 'BTCUSDT',
      condition: 'exiting_channel',
      threshold: '60000',
      use_audio: true,
      audio_message: null,
      audio_voice_id: 'Samantha',
    });
    expect(parseCheckResponse(JSON.parse(JSON.stringify({ triggeredAlerts: [entry] })))).toEqual([
      { id: '12', logId: '981', name: 'BTC channel', message: 'BTC channel Alert Triggered', symbol: 'BTCUSDT', useAudio: true, audioMessage: null, audioVoiceId: 'Samantha' },
    ]);
    expect(() => parseCheckResponse({ alerts: [] })).toThrow(TypeError);
  });

  it('read market search results (GET /api/markets: { markets }) with the shared markets client', () => {
    expect(parseMarkets({ markets: [{ id: 1, symbol: 'BTCUSDT', name: 'Bitcoin / TetherUS', type: 'crypto', description: null }] })).toEqual([
      { id: 1, symbol: 'BTCUSDT', name: 'Bitcoin / TetherUS', type: 'crypto', description: null },
    ]);
  });

  it('read a page of the list with its cursor ({ alerts, nextBefore })', () => {
    const body = JSON.parse(JSON.stringify({ alerts: [toClientAlert(row)], nextBefore: String(row.id) }));
    expect(parseAlertPage(body)).toEqual({ items: parseAlertList(body), nextBefore: String(row.id) });
    expect(parseAlertPage(body).items.map((alert) => [alert.id, alert.name])).toEqual([[String(row.id), row.name]]);
    expect(parseAlertPage({ alerts: [], nextBefore: null })).toEqual({ items: [], nextBefore: null });
  });

  it('keep an alert whose condition this client does not know, by its type', () => {
    const [alert] = parseAlertList({ alerts: [{ ...toClientAlert(row), condition: { type: 'volume_spike', factor: 3 } }] });
    expect(alert?.condition).toBeNull();
    expect(alert?.conditionType).toBe('volume_spike');
  });
});

describe('condition summaries', () => {
  const examples: Record<AlertCondition['type'], [Record<string, unknown>, string]> = {
    crossing: [{ value: '100' }, 'Crosses 100'],
    crossing_up: [{ value: '100' }, 'Crosses up through 100'],
    crossing_down: [{ value: '100' }, 'Crosses down through 100'],
    greater_than: [{ value: '0.3' }, 'Above 0.3'],
    less_than: [{ value: '0.3' }, 'Below 0.3'],
    entering_channel: [{ low: '90', high: '110' }, 'Enters the 90–110 channel'],
    exiting_channel: [{ low: '90', high: '110' }, 'Leaves the 90–110 channel'],
    inside_channel: [{ low: '90', high: '110' }, 'Inside 90–110'],
    outside_channel: [{ low: '90', high: '110' }, 'Outside 90–110'],
    moving_up: [{ amount: '500', minutes: 15 }, 'Rises by 500 within 15 min'],
    moving_down: [{ amount: '500', minutes: 15 }, 'Falls by 500 within 15 min'],
    moving_up_percent: [{ percent: '2.5', minutes: 60 }, 'Rises 2.5% within 60 min'],
    moving_down_percent: [{ percent: '2.5', minutes: 60 }, 'Falls 2.5% within 60 min'],
    rsi_above: [{ level: 70, period: 14 }, 'RSI(14) above 70'],
    rsi_below: [{ level: 30, period: 7 }, 'RSI(7) below 30'],
    price_crossing_ma: [{ ma: 'ema', period: 50, direction: 'down' }, 'Price crosses EMA(50) down'],
    ma_crossover: [{ ma: 'sma', fast: 50, slow: 200, direction: 'any' }, 'SMA(50) crosses SMA(200) either way'],
    macd_signal_cross: [{ fast: 12, slow: 26, signal: 9, direction: 'up' }, 'MACD(12, 26, 9) crosses its signal up'],
    volatility_above: [{ period: 20, level: 60 }, 'Realised volatility (20 bars) above 60%'],
    volatility_spike: [{ period: 20, longPeriod: 100, factor: 2 }, 'Volatility (20 bars) above 2× its 100-bar average'],
    atr_above: [{ period: 14, unit: 'percent', level: 2.5 }, 'ATR(14) above 2.5% of the close'],
    bollinger_squeeze: [{ period: 20, level: 0.05 }, 'Bollinger width (20) below 0.05'],
    bollinger_breakout: [{ period: 20, factor: 2, lookback: 5 }, 'Bollinger width (20) above 2× its value 5 bars earlier'],
    opening_gap: [{ percent: 2.5, direction: 'down' }, 'Opening gap of more than 2.5% down against the previous close'],
    news: [{ scope: 'keywords', keywords: ['ETF', 'halving'], digest: true }, 'News naming “ETF”, “halving”, hourly digest'],
  };

  it('news alerts read as words in every scope', () => {
    expect(conditionSummary(parseCondition({ type: 'news', scope: 'any', digest: false })!)).toBe('Any news');
    expect(conditionSummary(parseCondition({ type: 'news', scope: 'filings', digest: false })!)).toBe('SEC filings');
    expect(parseCondition({ type: 'news', scope: 'keywords', digest: false })).toBeNull();
  });

  it.each(ALERT_CONDITION_TYPES.map((type) => [type] as const))('%s reads as words', (type) => {
    const [params, words] = examples[type];
    const condition = parseCondition({ type, ...params });
    expect(condition).not.toBeNull();
    expect(conditionSummary(condition as AlertCondition)).toBe(words);
  });
});
