import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { currentChart, liveSeries, resetFakeCharts, type FakeChart } from '../../test/chart-library';
import { removeFetch } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { layoutView, quote, risingBars, watchlistsChartsFake, type WatchlistsChartsFake } from '../../test/watchlists-charts-api';
import { publishLivePrice } from '../prices/live-prices';
import { THEME_STORAGE_KEY } from '../theme/theme-rules';

// jsdom has no canvas: jest maps lightweight-charts to test/chart-library, a recorder of what the
// page hands the library (jest.config.js). Everything else is real.
jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

beforeEach(() => {
  window.localStorage.clear();
  window.localStorage.setItem(THEME_STORAGE_KEY, 'light');
  resetFakeCharts();
});
afterEach(removeFetch);

function setUp(init: Parameters<typeof watchlistsChartsFake>[0] = {}): WatchlistsChartsFake {
  const fake = watchlistsChartsFake(init);
  fake.bars.set('BTCUSDT 1h', { simulated: true, bars: risingBars(60) });
  fake.bars.set('BTCUSDT 4h', { simulated: true, bars: risingBars(40, '2026-11-10T00:00:00.000Z', 4 * 3_600_000) });
  fake.bars.set('ETHUSDT 4h', { simulated: false, bars: risingBars(50, '2026-11-10T00:00:00.000Z', 4 * 3_600_000) });
  installFakeApi(signedInSession(), fake.handler);
  return fake;
}

function barCalls(fake: WatchlistsChartsFake): string[] {
  return fake.calls.filter((call) => call.path.endsWith('/bars')).map((call) => call.path);
}

/** The longest wait for a first render: the page's lazy chunk and the chart library load first (slow on a loaded 2-core CI). */
const FIRST_RENDER = { timeout: 15_000 };

/** Waits until the chart shows `count` candles. */
async function chartWithCandles(count: number): Promise<FakeChart> {
  await screen.findByTestId('price-chart', {}, FIRST_RENDER);
  await waitFor(() => expect(liveSeries(currentChart(), 'Candlestick')[0]?.data).toHaveLength(count));
  return currentChart();
}

type LinePoint = { time: number; value: number };

describe('chart page', () => {
  it('opens BTCUSDT 1h with candles and volume when there is no saved layout, and says the bars are simulated', async () => {
    const fake = setUp();
    const router = renderApp('/dashboard/charts');

    const chart = await chartWithCandles(60);
    expect(router.state.location.pathname).toBe('/dashboard/charts/BTCUSDT');
    expect(screen.getByRole('heading', { level: 1, name: 'BTCUSDT chart' })).toBeInTheDocument();
    expect(screen.getByText('Simulated data')).toBeInTheDocument();
    expect(barCalls(fake)).toEqual(['/api/markets/BTCUSDT/bars']);
    expect(fake.calls.find((call) => call.path.endsWith('/bars'))?.method).toBe('GET');
    const candles = liveSeries(chart, 'Candlestick')[0];
    expect(candles?.data[0]).toEqual({ time: Date.UTC(2026, 10, 18) / 1000, open: 99, high: 102, low: 98, close: 100 });
    const [volume] = liveSeries(chart, 'Histogram');
    expect(volume?.options).toMatchObject({ priceScaleId: 'volume' });
    expect(volume?.data[59]).toMatchObject({ value: 69 });
    expect(chart.scaleOptions.volume).toEqual([{ scaleMargins: { top: 0.8, bottom: 0 } }]);
    // The chart follows its container's size.
    expect(chart.options[0]).toMatchObject({ autoSize: true });
    expect(screen.getByRole('img', { name: 'BTCUSDT 1h candlestick chart' })).toHaveAccessibleDescription(
      '60 1h bars of BTCUSDT from 2026-11-18 00:00 to 2026-11-20 11:00 UTC; last close 159.00; indicators: Volume.',
    );
  });

  it('opens the default layout by itself: its symbol, interval and indicators', async () => {
    const fake = setUp({
      layouts: [
        layoutView(1, 'Plain', { symbol: 'BTCUSDT', interval: '1h', indicators: [] }),
        layoutView(2, 'Swing', { symbol: 'ETHUSDT', interval: '4h', indicators: [{ type: 'sma', period: 5 }, { type: 'rsi', period: 14 }, { type: 'macd' }] }, true),
      ],
    });
    const router = renderApp('/dashboard/charts');

    const chart = await chartWithCandles(50);
    expect(router.state.location.pathname).toBe('/dashboard/charts/ETHUSDT');
    expect(barCalls(fake)).toEqual(['/api/markets/ETHUSDT/bars']);
    expect(fake.calls.find((call) => call.path.endsWith('/bars'))).toBeDefined();
    expect(screen.getByRole('radio', { name: '4 hours' })).toBeChecked();
    expect(screen.queryByText('Simulated data')).not.toBeInTheDocument();

    const [sma, rsi, macdLine, signal] = liveSeries(chart, 'Line');
    // SMA 5 of closes 100..149: from the fifth bar, the mean of the last five closes.
    expect(sma?.pane).toBe(0);
    expect((sma?.data as LinePoint[]).slice(0, 2).map((p) => p.value)).toEqual([102, 103]);
    expect(sma?.data).toHaveLength(46);
    // RSI on closes that only rise is 100, in the pane under the candles, with 70/30 lines.
    expect(rsi?.pane).toBe(1);
    expect((rsi?.data as LinePoint[]).every((p) => p.value === 100)).toBe(true);
    expect(rsi?.priceLines.map((line) => line.price)).toEqual([70, 30]);
    expect([macdLine?.pane, signal?.pane]).toEqual([2, 2]);
    expect(macdLine?.data).toHaveLength(50 - 33);
    // No volume in this layout: the only histogram is MACD's.
    expect(liveSeries(chart, 'Histogram').map((series) => series.pane)).toEqual([2]);
    expect(within(screen.getByRole('list', { name: 'Saved layouts' })).getByText('Default').closest('li')).toHaveTextContent('Swing');
  });

  it('keeps the symbol of the address but applies the default layout’s interval', async () => {
    const fake = setUp({ layouts: [layoutView(2, 'Swing', { symbol: 'ETHUSDT', interval: '4h', indicators: [] }, true)] });
    const router = renderApp('/dashboard/charts/BTCUSDT');

    await chartWithCandles(40);
    expect(router.state.location.pathname).toBe('/dashboard/charts/BTCUSDT');
    expect(fake.calls.filter((call) => call.path.endsWith('/bars')).map((call) => call.path)).toEqual(['/api/markets/BTCUSDT/bars']);
  });

  it('asks the api for the chosen interval and redraws', async () => {
    const fake = setUp();
    renderApp('/dashboard/charts/BTCUSDT');
    await chartWithCandles(60);

    fireEvent.click(screen.getByRole('radio', { name: '4 hours' }));

    await chartWithCandles(40);
    const requested = fake.calls.filter((call) => call.path.endsWith('/bars'));
    expect(requested).toHaveLength(2);
    expect(screen.getByRole('img', { name: 'BTCUSDT 4h candlestick chart' })).toBeInTheDocument();
  });

  it('moves the last candle with live prices of the symbol, and opens a new one when its hour is over', async () => {
    setUp();
    renderApp('/dashboard/charts/BTCUSDT');
    const chart = await chartWithCandles(60);
    const candles = () => liveSeries(chart, 'Candlestick')[0]?.data as { time: number; close: number; high: number }[];
    const lastOpen = Date.UTC(2026, 10, 20, 11);

    act(() => publishLivePrice(quote('ETHUSDT', '1', null, true, new Date(lastOpen + 60_000).toISOString())));
    act(() => publishLivePrice(quote('BTCUSDT', '170.25', '2', true, new Date(lastOpen + 60_000).toISOString())));

    await waitFor(() => expect(candles().at(-1)).toMatchObject({ time: lastOpen / 1000, close: 170.25, high: 170.25 }));
    expect(candles()).toHaveLength(60);

    act(() => publishLivePrice(quote('BTCUSDT', '171', '2', true, new Date(lastOpen + 3_600_000 + 5_000).toISOString())));
    await waitFor(() => expect(candles()).toHaveLength(61));
    expect(candles().at(-1)).toMatchObject({ time: lastOpen / 1000 + 3600, close: 171 });
  });

  it('adds and removes indicators', async () => {
    setUp();
    renderApp('/dashboard/charts/BTCUSDT');
    const chart = await chartWithCandles(60);
    const form = within(screen.getByRole('form', { name: 'Add an indicator' }));

    fireEvent.change(form.getByLabelText('Indicator'), { target: { value: 'ema' } });
    fireEvent.change(form.getByLabelText('Period'), { target: { value: '10' } });
    fireEvent.click(form.getByRole('button', { name: 'Add indicator' }));

    await waitFor(() => expect(liveSeries(chart, 'Line')).toHaveLength(1));
    expect(liveSeries(chart, 'Line')[0]?.data).toHaveLength(51);
    expect(screen.getByRole('list', { name: 'Indicators on the chart' })).toHaveTextContent('EMA 10');
    // The same indicator twice is refused.
    expect(form.getByRole('button', { name: 'Add indicator' })).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: 'Remove Volume' }));
    await waitFor(() => expect(liveSeries(chart, 'Histogram')).toHaveLength(0));
    expect(liveSeries(chart, 'Candlestick')).toHaveLength(1);
  });

  it('draws with the dark theme’s colours', async () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    setUp();
    renderApp('/dashboard/charts/BTCUSDT');

    const chart = await chartWithCandles(60);
    expect(chart.options[0]).toMatchObject({ layout: { background: { color: '#151924' }, textColor: '#a6aec3' } });
    expect(liveSeries(chart, 'Candlestick')[0]?.options).toMatchObject({ upColor: '#4ade80', downColor: '#fb7185' });
  });

  it('saves the chart as the default layout with the csrf header', async () => {
    const fake = setUp({ layouts: [layoutView(1, 'Old default', { symbol: 'ETHUSDT', interval: '1h', indicators: [{ type: 'sma', period: 9 }] }, true)] });
    renderApp('/dashboard/charts/BTCUSDT');
    await chartWithCandles(60);
    const form = within(screen.getByRole('form', { name: 'Save layout' }));

    fireEvent.change(form.getByLabelText('Layout name'), { target: { value: 'BTC hourly' } });
    fireEvent.click(form.getByLabelText('Open this layout by default'));
    fireEvent.click(form.getByRole('button', { name: 'Save layout' }));

    expect(await screen.findByText('Saved “BTC hourly” as your default layout.')).toBeInTheDocument();
    const post = fake.calls.find((call) => call.method === 'POST' && call.path === '/api/chart-layouts');
    expect(post?.headers['x-csrf-token']).toBe('csrf-test');
    // The chart as shown: this symbol, with the old default's interval and indicators applied.
    expect(post?.body).toEqual({ name: 'BTC hourly', layout: { symbol: 'BTCUSDT', interval: '1h', indicators: [{ type: 'sma', period: 9 }] }, isDefault: true });
    const list = within(screen.getByRole('list', { name: 'Saved layouts' }));
    expect(list.getAllByText('Default')).toHaveLength(1);
    expect(list.getByText('Default').closest('li')).toHaveTextContent('BTC hourly');
  });

  it('loads a layout, makes another the default and deletes one after confirming', async () => {
    const fake = setUp({
      layouts: [layoutView(1, 'Swing', { symbol: 'BTCUSDT', interval: '4h', indicators: [{ type: 'ema', period: 21 }] }), layoutView(2, 'Scalp', { symbol: 'BTCUSDT', interval: '1h', indicators: [] })],
    });
    renderApp('/dashboard/charts/BTCUSDT');
    await chartWithCandles(60);

    fireEvent.click(screen.getByRole('button', { name: 'Load Swing' }));
    const chart = await chartWithCandles(40);
    expect(fake.calls.filter((call) => call.path.startsWith('/api/chart-layouts')).map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /api/chart-layouts',
      'GET /api/chart-layouts/default',
      'GET /api/chart-layouts/1',
    ]);
    expect(liveSeries(chart, 'Line')[0]?.options).toMatchObject({ title: 'EMA 21' });

    fireEvent.click(screen.getByRole('button', { name: 'Make Scalp the default' }));
    expect(await screen.findByText('“Scalp” now opens by default.')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Delete Swing' }));
    expect(fake.changes()).toEqual(['PUT /api/chart-layouts/2/default']);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm deleting Swing' }));
    expect(await screen.findByText('Deleted “Swing”.')).toBeInTheDocument();
    expect(fake.changes()).toEqual(['PUT /api/chart-layouts/2/default', 'DELETE /api/chart-layouts/1']);
    expect(fake.calls.filter((call) => call.path.startsWith('/api/chart-layouts') && call.method !== 'GET').every((call) => call.headers['x-csrf-token'] === 'csrf-test')).toBe(true);
    expect(within(screen.getByRole('list', { name: 'Saved layouts' })).getAllByRole('listitem')).toHaveLength(1);
  });

  it('shows the api’s message when saving fails', async () => {
    const fake = setUp();
    fake.replies.set('POST /api/chart-layouts', { status: 403, body: { error: { code: 'limit', message: 'You can save at most 50 chart layouts' } } });
    renderApp('/dashboard/charts/BTCUSDT');
    await chartWithCandles(60);

    fireEvent.change(screen.getByLabelText('Layout name'), { target: { value: 'One more' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save layout' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Could not save the layout: You can save at most 50 chart layouts');
  });

  it('says so when the symbol is unknown, with a way back', async () => {
    setUp();
    renderApp('/dashboard/charts/NOPE');

    expect(await screen.findByRole('alert', {}, FIRST_RENDER)).toHaveTextContent('No chart for NOPE: No market NOPE');
    expect(screen.getByRole('link', { name: 'Back to your watchlists' })).toHaveAttribute('href', '/dashboard/watchlists');
    expect(screen.queryByTestId('price-chart')).not.toBeInTheDocument();
  });

  it('says so when a known symbol has no bars stored yet', async () => {
    setUp();
    renderApp('/dashboard/charts/SOLUSDT');

    expect(await screen.findByText(/No 1 hour bars are stored for SOLUSDT yet/, {}, FIRST_RENDER)).toBeInTheDocument();
  });

  it('shows the backfill in progress on a fresh system and draws its bars when they arrive, without a reload', async () => {
    const fake = setUp();
    fake.bars.set('ETHUSDT 1d', { simulated: false, bars: risingBars(1, '2026-11-20T00:00:00.000Z', 86_400_000), backfillPending: true });
    renderApp('/dashboard/charts/ETHUSDT');
    await screen.findByRole('radio', { name: '1 day' }, FIRST_RENDER);
    fireEvent.click(screen.getByRole('radio', { name: '1 day' }));

    expect(await screen.findByText(/Fetching the rest of ETHUSDT’s 1 day history: one bar is stored so far/)).toBeInTheDocument();
    await chartWithCandles(1);
    const asked = barCalls(fake).length;

    // The worker writes the history; the page asks again by itself and draws it.
    fake.bars.set('ETHUSDT 1d', { simulated: false, bars: risingBars(300, '2025-01-25T00:00:00.000Z', 86_400_000) });
    await waitFor(() => expect(liveSeries(currentChart(), 'Candlestick')[0]?.data).toHaveLength(300), FIRST_RENDER);
    expect(screen.queryByText(/Fetching the rest/)).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'ETHUSDT 1d candlestick chart' })).toHaveAccessibleDescription(/^300 1d bars of ETHUSDT/);
    expect(barCalls(fake).length).toBe(asked + 1);
  });

  it('says the history is being fetched, not that there are no bars, while an empty chart’s backfill runs', async () => {
    const fake = setUp();
    fake.bars.set('SOLUSDT 1h', { simulated: false, bars: [], backfillPending: true });
    renderApp('/dashboard/charts/SOLUSDT');

    expect(await screen.findByText(/Fetching SOLUSDT’s 1 hour history from the price source/, {}, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.queryByText(/No 1 hour bars are stored/)).not.toBeInTheDocument();
  });

  it('reads “no default layout” (200, layout null) as an ordinary answer, not an error', async () => {
    const fake = setUp();
    const router = renderApp('/dashboard/charts');
    await chartWithCandles(60);

    expect(router.state.location.pathname).toBe('/dashboard/charts/BTCUSDT');
    expect(fake.calls.some((call) => call.path === '/api/chart-layouts/default')).toBe(true);
    expect(screen.getByText(/No saved layouts/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('opens another symbol from the search box', async () => {
    setUp();
    const router = renderApp('/dashboard/charts/BTCUSDT');
    await chartWithCandles(60);

    fireEvent.change(screen.getByRole('combobox', { name: 'Open a symbol' }), { target: { value: 'eth' } });
    fireEvent.mouseDown(await screen.findByRole('option', { name: /ETHUSDT/ }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/charts/ETHUSDT'));
    expect(await screen.findByText(/No 1 hour bars are stored for ETHUSDT yet/)).toBeInTheDocument();
  });

  it('is in the dashboard navigation', async () => {
    setUp();
    renderApp('/dashboard/charts/BTCUSDT');
    const nav = within(await screen.findByRole('navigation', { name: 'Dashboard' }));
    expect(nav.getByRole('link', { name: 'Charts' })).toHaveAttribute('aria-current', 'page');
    await chartWithCandles(60);
  });
});
