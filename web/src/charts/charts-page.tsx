// /dashboard/charts and /dashboard/charts/:symbol: a symbol's candles with volume and indicators,
// its interval, live updates of the last bar, and saved layouts (the default opens by itself).
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { CANDLE_INTERVALS, CANDLE_INTERVAL_MS, type CandleInterval } from '@tickerbell/jobs/prices/shapes';
import { getBars, type Bars } from '../prices/markets-client';
import { SymbolSearch } from '../prices/symbol-search';
import { subscribeLivePrices } from '../prices/live-prices';
import { SimulatedBadge } from '../prices/simulated-badge';
import { messageOf } from '../accounts/auth-client';
import { useTheme } from '../theme/theme-provider';
import { applyLivePrice } from './chart-indicators';
import { ChartLayoutsPanel } from './chart-layouts-panel';
import {
  DEFAULT_CHART,
  getChartLayout,
  getChartLayouts,
  getDefaultChartLayout,
  type ChartLayout,
  type ChartLayoutData,
  type ChartLayoutSummary,
  type IndicatorConfig,
} from './chart-layouts-client';
import { chartPath } from './chart-paths';
import { IndicatorsPanel } from './indicators-panel';
import { NewsColumn } from '../news/news-column';
import { PriceChart } from './price-chart';
import './charts.css';

type Layouts = { state: 'loading' } | { state: 'ready'; layouts: ChartLayoutSummary[]; error: string | null };
type BarsState =
  | { state: 'loading'; previous: Bars | null }
  | { state: 'ready'; data: Bars; slowBackfill: boolean }
  | { state: 'failed'; status: number; message: string };

export const INTERVAL_LABELS: Readonly<Record<CandleInterval, string>> = { '1m': '1 min', '5m': '5 min', '15m': '15 min', '1h': '1 hour', '4h': '4 hours', '1d': '1 day' };

/**
 * How long to wait before asking again for bars whose backfill is pending (the api answers what is
 * stored at once and queues the rest): soon at first, then every 10 s while the page stays open.
 */
export const BACKFILL_RECHECK_MS: readonly number[] = [1_000, 2_000, 3_000, 5_000, 10_000];
/** After this long the page says the history is taking longer than usual. */
export const BACKFILL_SLOW_MS = 60_000;

/**
 * Bars of a symbol and interval, with the last bar following the live price events. While the
 * api says a backfill is pending, it asks again until the backfill has written the rest, so a
 * chart opened on a fresh system fills in without a reload.
 */
function useLiveBars(symbol: string, interval: CandleInterval, enabled: boolean): BarsState {
  const [result, setResult] = useState<BarsState>({ state: 'loading', previous: null });
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let recheck = 0;
    const startedAt = Date.now();
    setResult((current) => ({ state: 'loading', previous: current.state === 'ready' ? current.data : current.state === 'loading' ? current.previous : null }));
    const again = (): void => {
      timer = setTimeout(load, BACKFILL_RECHECK_MS[Math.min(recheck++, BACKFILL_RECHECK_MS.length - 1)]);
    };
    const load = (): void => {
      getBars(symbol, interval, controller.signal)
        .then((data) => {
          if (controller.signal.aborted) return;
          setResult({ state: 'ready', data, slowBackfill: data.backfillPending && Date.now() - startedAt >= BACKFILL_SLOW_MS });
          if (data.backfillPending) again();
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          // A failed recheck keeps the bars shown and tries again; a failed first load is the answer.
          if (recheck > 0) again();
          else setResult({ state: 'failed', status: error instanceof ApiError ? error.status : 0, message: messageOf(error) });
        });
    };
    load();
    const unsubscribe = subscribeLivePrices((price) => {
      if (price.symbol !== symbol) return;
      setResult((current) => {
        if (current.state !== 'ready' || current.data.interval !== interval) return current;
        const bars = applyLivePrice(current.data.bars, price, CANDLE_INTERVAL_MS[interval]);
        return bars ? { ...current, data: { ...current.data, bars, simulated: current.data.simulated || price.simulated } } : current;
      });
    });
    return () => {
      controller.abort();
      clearTimeout(timer);
      unsubscribe();
    };
  }, [symbol, interval, enabled]);
  return result;
}

/** What the chart waits for while its backfill runs. */
function backfillText(bars: Bars, slow: boolean): string {
  const label = INTERVAL_LABELS[bars.interval];
  const what =
    bars.bars.length === 0
      ? `Fetching ${bars.symbol}’s ${label} history from the price source.`
      : `Fetching the rest of ${bars.symbol}’s ${label} history: ${bars.bars.length === 1 ? 'one bar is' : `${bars.bars.length} bars are`} stored so far.`;
  const then = slow ? ' This is taking longer than usual (are the workers running?); the page keeps checking.' : ' The chart draws the bars as soon as they arrive.';
  return what + then;
}

export function ChartsPage() {
  const params = useParams();
  const navigate = useNavigate();
  const { theme } = useTheme();
  const [layouts, setLayouts] = useState<Layouts>({ state: 'loading' });
  const [interval, setBarInterval] = useState<CandleInterval>(DEFAULT_CHART.interval);
  const [indicators, setIndicators] = useState<IndicatorConfig[]>(DEFAULT_CHART.indicators);
  const [activeLayoutId, setActiveLayoutId] = useState<number | null>(null);
  const symbol = (params.symbol ?? '').toUpperCase();

  /** Applies a layout's settings; `go` also opens its symbol (replacing a bare /dashboard/charts). */
  const apply = (layout: ChartLayout, go: 'stay' | 'push' | 'replace'): void => {
    setBarInterval(layout.layout.interval);
    setIndicators(layout.layout.indicators);
    setActiveLayoutId(layout.id);
    if (go !== 'stay' && layout.layout.symbol !== symbol) navigate(chartPath(layout.layout.symbol), { replace: go === 'replace' });
  };

  // The saved layouts first: the default one decides the interval and indicators (and the symbol
  // when the address names none) before any bars are asked for.
  useEffect(() => {
    const controller = new AbortController();
    Promise.all([getChartLayouts(controller.signal), getDefaultChartLayout(controller.signal)])
      .then(([loaded, preferred]) => {
        setLayouts({ state: 'ready', layouts: loaded, error: null });
        if (preferred) apply(preferred, params.symbol ? 'stay' : 'replace');
        else if (!params.symbol) navigate(chartPath(DEFAULT_CHART.symbol), { replace: true });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLayouts({ state: 'ready', layouts: [], error: messageOf(error) });
        if (!params.symbol) navigate(chartPath(DEFAULT_CHART.symbol), { replace: true });
      });
    return () => controller.abort();
    // Once per visit: later symbol changes keep the chosen settings.
  }, []);

  const ready = layouts.state === 'ready' && symbol !== '';
  const bars = useLiveBars(symbol, interval, ready);
  const shown = bars.state === 'ready' ? bars.data : bars.state === 'loading' ? bars.previous : null;
  const current: ChartLayoutData = { symbol, interval, indicators };

  return (
    <>
      <title>{symbol ? `${symbol} chart · Tickerbell` : 'Charts · Tickerbell'}</title>
      <div className="charts-header">
        <h1>{symbol ? `${symbol} chart` : 'Charts'}</h1>
        {shown?.simulated && shown.symbol === symbol && <SimulatedBadge what="bars" />}
      </div>
      <div className="charts-toolbar">
        <SymbolSearch label="Open a symbol" onSelect={(market) => navigate(chartPath(market.symbol))} />
        <fieldset className="choice-group interval-switcher">
          <legend className="choice-group__legend">Interval</legend>
          <div className="choice-group__options">
            {CANDLE_INTERVALS.map((value) => (
              <label key={value} className={value === interval ? 'interval-switcher__option interval-switcher__option--active' : 'interval-switcher__option'}>
                <input type="radio" name="chart-interval" value={value} checked={value === interval} onChange={() => setBarInterval(value)} />
                <span>{INTERVAL_LABELS[value]}</span>
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      {layouts.state === 'loading' && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading your chart layouts…
        </p>
      )}
      {ready && (
        <div className="charts">
          <div className="charts__main">
            {bars.state === 'failed' ? (
              <div className="form-message form-message--error" role="alert">
                <p>
                  {bars.status === 404 ? `No chart for ${symbol}: ` : 'The chart could not be loaded: '}
                  {bars.message}
                </p>
                <Link to="/dashboard/watchlists">Back to your watchlists</Link>
              </div>
            ) : shown === null ? (
              <p role="status" className="page-loading">
                <span className="spinner" aria-hidden="true" /> Loading {symbol} bars…
              </p>
            ) : (
              <>
                {shown.backfillPending && (
                  <p role="status" className="chart-backfill">
                    <span className="spinner" aria-hidden="true" />
                    <span>
                      {backfillText(shown, bars.state === 'ready' && bars.slowBackfill)}
                    </span>
                  </p>
                )}
                {shown.bars.length === 0 ? (
                  !shown.backfillPending && (
                    <p className="empty-state">
                      No {INTERVAL_LABELS[interval]} bars are stored for {symbol} yet. They appear once the prices jobs have fetched or built them.
                    </p>
                  )
                ) : (
                  <PriceChart symbol={shown.symbol} interval={shown.interval} bars={shown.bars} indicators={indicators} theme={theme} />
                )}
              </>
            )}
            <p className="form-field__hint">The last bar follows live prices of the symbols on your watchlists.</p>
          </div>
          {/* An unknown symbol has no news either: the chart's message says so once. */}
          {!(bars.state === 'failed' && bars.status === 404) && <NewsColumn symbol={symbol} className="charts__news" />}
          <aside className="charts__side">
            <IndicatorsPanel indicators={indicators} onChange={setIndicators} />
            <ChartLayoutsPanel
              layouts={layouts.layouts}
              loadError={layouts.error}
              current={current}
              activeLayoutId={activeLayoutId}
              onLayoutsChange={(change) => setLayouts((state) => (state.state === 'ready' ? { ...state, layouts: change(state.layouts) } : state))}
              onLoad={async (summary) => apply(await getChartLayout(summary.id), 'push')}
              onSaved={setActiveLayoutId}
            />
          </aside>
        </div>
      )}
    </>
  );
}
