// The company page's charts: daily candles of the company's market (the prices feature's bars and
// the chart theme of the charts page) with a marker on each day insiders bought or sold on the
// open market; without a market, the same trades on a timeline. And the sentiment history.
import { CandlestickSeries, ColorType, createChart, createSeriesMarkers, type IChartApi, type ISeriesApi, type SeriesMarker, type Time, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useId, useRef } from 'react';
import type { InsiderAnalyticsView, InsiderTradeRow } from '@tickerbell/jobs/insiders/shapes';
import { CHART_PALETTES } from '../charts/chart-theme';
import type { Bar } from '../prices/markets-client';
import type { Theme } from '../theme/theme-rules';
import { formatScore, formatUsdCompact } from './insiders-client';

const DAY = 86_400;

/** Open-market purchases and sales of one day, summed (other codes are not buying or selling). */
export interface TradeDay {
  date: string;
  side: 'buy' | 'sell';
  value: number;
  lines: number;
  insiders: string[];
}

export function tradeDays(trades: readonly InsiderTradeRow[]): TradeDay[] {
  const days = new Map<string, TradeDay>();
  for (const row of trades) {
    if (row.countsAs === null) continue;
    const key = `${row.transactionDate} ${row.countsAs}`;
    const day = days.get(key) ?? { date: row.transactionDate, side: row.countsAs, value: 0, lines: 0, insiders: [] };
    // In cents, so a day's sum does not pick up floating-point noise.
    day.value = (Math.round(day.value * 100) + Math.round(Math.abs(Number(row.totalValue ?? 0) || 0) * 100)) / 100;
    day.lines += 1;
    if (!day.insiders.includes(row.insiderName)) day.insiders.push(row.insiderName);
    days.set(key, day);
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date) || a.side.localeCompare(b.side));
}

const daySeconds = (date: string): number => Date.parse(`${date}T00:00:00Z`) / 1000;

/**
 * The chart's markers: each trade day on the first daily bar at or after it (a weekend trade on
 * Monday's bar), at most 4 days later; days outside the bars are returned as `offChart`.
 */
export function tradeMarkers(days: readonly TradeDay[], bars: readonly Bar[], colours: { buy: string; sell: string }): { markers: SeriesMarker<Time>[]; offChart: TradeDay[] } {
  const markers: SeriesMarker<Time>[] = [];
  const offChart: TradeDay[] = [];
  for (const day of days) {
    const at = daySeconds(day.date);
    const bar = bars.find((candidate) => candidate.time >= at && candidate.time < at + 5 * DAY) ?? bars.find((candidate) => candidate.time <= at && candidate.time > at - DAY);
    if (!bar) {
      offChart.push(day);
      continue;
    }
    markers.push({
      time: bar.time as UTCTimestamp,
      position: day.side === 'buy' ? 'belowBar' : 'aboveBar',
      shape: day.side === 'buy' ? 'arrowUp' : 'arrowDown',
      color: day.side === 'buy' ? colours.buy : colours.sell,
      text: `${day.side === 'buy' ? 'Buy' : 'Sell'} ${formatUsdCompact(String(day.value))}`,
    });
  }
  markers.sort((a, b) => Number(a.time) - Number(b.time));
  return { markers, offChart };
}

function describeDays(days: readonly TradeDay[]): string {
  if (!days.length) return 'No open-market purchases or sales in these lines.';
  return days.map((day) => `${day.date}: ${day.side === 'buy' ? 'bought' : 'sold'} ${formatUsdCompact(String(day.value))} (${day.insiders.join(', ')})`).join('; ');
}

const CHART_HEIGHT = 360;

/** Daily candles of `symbol` with the buy and sell markers. */
export function InsiderPriceChart({ symbol, bars, days, theme }: { symbol: string; bars: readonly Bar[]; days: readonly TradeDay[]; theme: Theme }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const summaryId = useId();
  const palette = CHART_PALETTES[theme];
  const { markers, offChart } = tradeMarkers(days, bars, { buy: palette.up, sell: palette.down });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, { autoSize: true });
    chartRef.current = chart;
    seriesRef.current = chart.addSeries(CandlestickSeries, {});
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
    };
  }, []);

  useEffect(() => {
    const chart = chartRef.current;
    const series = seriesRef.current;
    if (!chart || !series) return;
    chart.applyOptions({
      layout: { background: { type: ColorType.Solid, color: palette.background }, textColor: palette.text },
      grid: { vertLines: { color: palette.grid }, horzLines: { color: palette.grid } },
      rightPriceScale: { borderColor: palette.border },
      timeScale: { borderColor: palette.border, timeVisible: false },
    });
    series.applyOptions({
      upColor: palette.up,
      downColor: palette.down,
      borderUpColor: palette.up,
      borderDownColor: palette.down,
      wickUpColor: palette.up,
      wickDownColor: palette.down,
    });
    series.setData(bars.map((bar) => ({ time: bar.time as UTCTimestamp, open: bar.open, high: bar.high, low: bar.low, close: bar.close })));
    const plugin = createSeriesMarkers(series, markers);
    chart.timeScale().fitContent();
    return () => plugin.detach();
  }, [bars, days, palette]);

  return (
    <figure className="insider-chart">
      <div
        ref={containerRef}
        className="insider-chart__canvas"
        role="img"
        aria-label={`${symbol} daily candles with insider buys and sells`}
        aria-describedby={summaryId}
        style={{ height: CHART_HEIGHT }}
        data-testid="insider-price-chart"
      />
      <figcaption id={summaryId} className="insider-chart__caption">
        <span className="insider-legend">
          <span className="insider-legend__buy" aria-hidden="true">
            ▲
          </span>{' '}
          insider buys (P){'  '}
          <span className="insider-legend__sell" aria-hidden="true">
            ▼
          </span>{' '}
          insider sells (S), summed per day
        </span>
        <span className="visually-hidden">{describeDays(days)}</span>
        {offChart.length > 0 && (
          <span className="data-table__sub">
            {offChart.length === 1 ? 'One trade day is' : `${offChart.length} trade days are`} outside the price history shown: {describeDays(offChart)}.
          </span>
        )}
      </figcaption>
    </figure>
  );
}

/** The timeline shows the year up to the latest trade day; earlier days are named below it. */
const TIMELINE_DAYS = 365;

/** The trade days a timeline draws (the last year up to the latest) and those before it. */
export function timelineWindow(days: readonly TradeDay[]): { shown: TradeDay[]; earlier: TradeDay[] } {
  const last = days.at(-1);
  if (!last) return { shown: [], earlier: [] };
  const from = daySeconds(last.date) - TIMELINE_DAYS * DAY;
  return { shown: days.filter((day) => daySeconds(day.date) >= from), earlier: days.filter((day) => daySeconds(day.date) < from) };
}

/** The same trade days on a time axis, for a company without a market in the prices feature. */
export function TradeTimeline({ days }: { days: readonly TradeDay[] }) {
  if (!days.length) return <p className="empty-state">No open-market purchases or sales among these lines: nothing to draw.</p>;
  const { shown, earlier } = timelineWindow(days);
  const first = daySeconds(shown[0]!.date);
  const last = daySeconds(shown.at(-1)!.date);
  // A single day sits in the middle; otherwise 4 % to 96 % of the width.
  const x = (date: string) => (last === first ? 50 : 4 + ((daySeconds(date) - first) / (last - first)) * 92);
  const maxValue = Math.max(...shown.map((day) => day.value), 1);
  const size = (value: number) => 0.9 + 1.1 * Math.sqrt(value / maxValue);
  const ticks = last === first ? [shown[0]!.date] : [shown[0]!.date, shown.at(-1)!.date];
  return (
    <figure className="insider-chart">
      <div className="insider-timeline" role="img" aria-label={`Insider buys and sells over time: ${describeDays(shown)}`}>
        <span className="insider-timeline__axis" aria-hidden="true" />
        {shown.map((day) => (
          <span
            key={`${day.date}-${day.side}`}
            className={`insider-timeline__mark insider-timeline__mark--${day.side}`}
            style={{ left: `${x(day.date)}%`, fontSize: `${size(day.value)}rem` }}
            title={`${day.date}: ${day.side === 'buy' ? 'bought' : 'sold'} ${formatUsdCompact(String(day.value))} (${day.insiders.join(', ')})`}
            aria-hidden="true"
          >
            {day.side === 'buy' ? '▲' : '▼'}
          </span>
        ))}
        {ticks.map((date, index) => (
          <span
            key={date}
            className={`insider-timeline__tick${ticks.length === 1 ? ' insider-timeline__tick--middle' : index === 0 ? ' insider-timeline__tick--start' : ' insider-timeline__tick--end'}`}
            aria-hidden="true"
          >
            {date}
          </span>
        ))}
      </div>
      <figcaption className="insider-chart__caption">
        <span className="insider-legend">
          <span className="insider-legend__buy" aria-hidden="true">
            ▲
          </span>{' '}
          buys above the line,{' '}
          <span className="insider-legend__sell" aria-hidden="true">
            ▼
          </span>{' '}
          sells below, sized by value; hover a mark for the day
        </span>
        {earlier.length > 0 && (
          <span className="data-table__sub">
            Earlier, outside this year: {describeDays(earlier)}.
          </span>
        )}
      </figcaption>
    </figure>
  );
}

/** The sentiment score of each analysis day as bars around zero (−100..+100). */
export function SentimentHistoryChart({ history }: { history: readonly InsiderAnalyticsView[] }) {
  const titleId = useId();
  const scored = history.filter((view) => view.sentimentScore !== null);
  if (!scored.length) return <p className="empty-state">No open-market purchases or sales in any window yet: no sentiment to draw.</p>;
  const width = 960;
  const height = 140;
  const middle = height / 2;
  const step = width / Math.max(scored.length, 12);
  const barWidth = Math.max(2, step * 0.7);
  return (
    <figure className="insider-chart">
      <div className="insider-sentiment-frame">
        <span className="insider-sentiment-frame__scale" aria-hidden="true">
          <span>+100</span>
          <span>0</span>
          <span>−100</span>
        </span>
        <svg className="insider-sentiment-chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} preserveAspectRatio="none">
          <title id={titleId}>{`Sentiment score from ${scored[0]!.analysisDate} to ${scored.at(-1)!.analysisDate}, latest ${formatScore(scored.at(-1)!.sentimentScore)}`}</title>
          <line x1={0} x2={width} y1={middle} y2={middle} className="insider-sentiment-chart__axis" />
          {scored.map((view, index) => {
            const score = Number(view.sentimentScore);
            const h = (Math.abs(score) / 100) * (middle - 4);
            return (
              <rect
                key={view.analysisDate}
                x={index * step + (step - barWidth) / 2}
                width={barWidth}
                y={score >= 0 ? middle - h : middle}
                height={Math.max(h, 1)}
                className={score >= 0 ? 'insider-sentiment-chart__buy' : 'insider-sentiment-chart__sell'}
              />
            );
          })}
        </svg>
      </div>
      <figcaption className="insider-chart__caption">
        Sentiment score per analysis day, {scored[0]!.analysisDate} to {scored.at(-1)!.analysisDate} (green: insiders net buyers, red: net sellers).
      </figcaption>
    </figure>
  );
}
