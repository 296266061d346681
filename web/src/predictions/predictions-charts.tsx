// The predictions charts. A market's YES price over time from our own snapshots, drawn with
// lightweight-charts (the chart library of the charts and whales pages, in the app's chart theme),
// with the viewer's forecast and the consensus as price lines. The performance page's calibration
// plot and monthly scores are inline SVG sized to their box (text stays legible on a phone). Each
// chart's numbers are also a table behind a disclosure.
import { ColorType, LineSeries, createChart, type IChartApi, type IPriceLine, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { PredictionCalibrationBin, PredictionSnapshotPoint, PredictionTrendPoint } from '@tickerbell/jobs/predictions/shapes';
import { CHART_PALETTES } from '../charts/chart-theme';
import type { Theme } from '../theme/theme-rules';
import { formatDateTime, formatMonth, formatProbability, formatScore } from './predictions-client';

const PRICE_CHART_HEIGHT = 280;

/** The chart's series: YES price in percent, one point per snapshot, oldest first, one per second. */
export function priceSeriesData(points: readonly PredictionSnapshotPoint[]): { time: UTCTimestamp; value: number }[] {
  const data: { time: UTCTimestamp; value: number }[] = [];
  for (const point of [...points].sort((a, b) => a.at.localeCompare(b.at))) {
    const time = Math.floor(Date.parse(point.at) / 1000) as UTCTimestamp;
    const value = Math.round(Number(point.price) * 10_000) / 100;
    if (!Number.isFinite(time) || !Number.isFinite(value)) continue;
    if (data.length && data[data.length - 1]!.time === time) data[data.length - 1] = { time, value };
    else data.push({ time, value });
  }
  return data;
}

interface PriceChartProps {
  points: readonly PredictionSnapshotPoint[];
  theme: Theme;
  /** The viewer's current forecast (0..1 string), drawn as a line. */
  forecast: string | null;
  consensus: string | null;
}

export function PriceChart({ points, theme, forecast, consensus }: PriceChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Line'> | null>(null);
  const linesRef = useRef<IPriceLine[]>([]);
  const summaryId = useId();
  const palette = CHART_PALETTES[theme];
  const data = priceSeriesData(points);
  const drawable = data.length >= 2;

  useEffect(() => {
    const container = containerRef.current;
    if (!container || !drawable) return;
    const chart = createChart(container, { autoSize: true, localization: { priceFormatter: (value: number) => `${value.toFixed(value % 1 === 0 ? 0 : 1)}%` } });
    chartRef.current = chart;
    seriesRef.current = chart.addSeries(LineSeries, { lineWidth: 2, priceLineVisible: false, priceFormat: { type: 'price', precision: 1, minMove: 0.1 } });
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
      linesRef.current = [];
    };
  }, [drawable]);

  useEffect(() => {
    const chart = chartRef.current;
    const series = seriesRef.current;
    if (!chart || !series) return;
    chart.applyOptions({
      layout: { background: { type: ColorType.Solid, color: palette.background }, textColor: palette.text },
      grid: { vertLines: { color: palette.grid }, horzLines: { color: palette.grid } },
      rightPriceScale: { borderColor: palette.border },
      timeScale: { borderColor: palette.border, timeVisible: true },
    });
    // The scale holds the forecast and the consensus too, so their lines are always in view.
    const levels = [forecast, consensus].filter((level): level is string => level !== null).map((level) => Number(level) * 100);
    series.applyOptions({
      color: palette.lines[0],
      autoscaleInfoProvider: (original: () => { priceRange: { minValue: number; maxValue: number } | null } | null) => {
        const info = original();
        if (!info?.priceRange || !levels.length) return info;
        return { ...info, priceRange: { minValue: Math.min(info.priceRange.minValue, ...levels), maxValue: Math.max(info.priceRange.maxValue, ...levels) } };
      },
    });
    series.setData(data);
    for (const line of linesRef.current) series.removePriceLine?.(line);
    linesRef.current = [];
    if (forecast !== null) {
      linesRef.current.push(series.createPriceLine({ price: Number(forecast) * 100, color: palette.lines[1]!, lineWidth: 2, lineStyle: 2, axisLabelVisible: true, title: 'Your forecast' }));
    }
    if (consensus !== null) {
      linesRef.current.push(series.createPriceLine({ price: Number(consensus) * 100, color: palette.lines[2]!, lineWidth: 1, lineStyle: 1, axisLabelVisible: true, title: 'Consensus' }));
    }
    chart.timeScale().fitContent();
  }, [points, palette, forecast, consensus, drawable]);

  if (!drawable) {
    return (
      <p className="empty-state pm-chart-empty">
        {points.length === 0 ? 'No price snapshot yet.' : 'One price snapshot so far.'} Tickerbell records the price every 15 minutes while someone forecasts or follows
        this market, so its chart survives the market’s resolution.
      </p>
    );
  }
  const newestFirst = [...points].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <figure className="pm-chart">
      <div
        ref={containerRef}
        className="pm-chart__canvas"
        role="img"
        aria-label="YES price over time, in percent"
        aria-describedby={summaryId}
        style={{ height: PRICE_CHART_HEIGHT }}
        data-testid="prediction-price-chart"
      />
      <figcaption id={summaryId} className="pm-chart__caption">
        <span className="pm-legend">
          <span className="pm-legend__item">
            <span className="pm-legend__line" style={{ background: palette.lines[0] }} aria-hidden="true" /> YES price
          </span>
          {forecast !== null && (
            <span className="pm-legend__item">
              <span className="pm-legend__line pm-legend__line--dashed" style={{ borderColor: palette.lines[1] }} aria-hidden="true" /> your forecast ({formatProbability(forecast)})
            </span>
          )}
          {consensus !== null && (
            <span className="pm-legend__item">
              <span className="pm-legend__line" style={{ background: palette.lines[2] }} aria-hidden="true" /> consensus ({formatProbability(consensus)})
            </span>
          )}
        </span>
        <span>
          {points.length} snapshots from {formatDateTime(newestFirst[newestFirst.length - 1]!.at)} to {formatDateTime(newestFirst[0]!.at)}.
        </span>
      </figcaption>
      <details className="pm-disclosure">
        <summary>Data table ({points.length} snapshots)</summary>
        <div className="table-scroll pm-scroll-box" role="region" aria-label="Price snapshots" tabIndex={0}>
          <table className="data-table pm-small-table">
            <caption className="visually-hidden">YES price snapshots, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col" className="num">
                  YES price
                </th>
                <th scope="col" className="num">
                  Bid
                </th>
                <th scope="col" className="num">
                  Ask
                </th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((point) => (
                <tr key={point.at}>
                  <th scope="row">{formatDateTime(point.at)}</th>
                  <td className="num">{formatProbability(point.price)}</td>
                  <td className="num">{formatProbability(point.bestBid)}</td>
                  <td className="num">{formatProbability(point.bestAsk)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

// ---- SVG charts sized to their box ----

/** The width of an element, followed as it changes (the fallback where ResizeObserver is missing, e.g. jsdom). */
function useWidth(ref: RefObject<HTMLElement | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const next = Math.round(element.getBoundingClientRect().width);
      if (next > 0) setWidth(next);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

const pct = (value: number) => `${Math.round(value * 100)}%`;
/** A score axis label: as few decimals as the round step needs ("0.1", "−0.25", "0"). */
const formatTick = (value: number) => (Math.abs(value) < 1e-9 ? '0' : `${value < 0 ? '−' : ''}${Number(Math.abs(value).toFixed(3))}`);

/** The bins with forecasts, as points: x the mean forecast, y the observed rate, bars the Wilson interval. */
export function calibrationPoints(bins: readonly PredictionCalibrationBin[]): { bin: PredictionCalibrationBin; x: number; y: number; low: number; high: number }[] {
  return bins
    .filter((bin) => bin.count > 0 && bin.meanForecast !== null && bin.observedRate !== null)
    .map((bin) => ({ bin, x: bin.meanForecast as number, y: bin.observedRate as number, low: bin.low ?? (bin.observedRate as number), high: bin.high ?? (bin.observedRate as number) }));
}

export function CalibrationPlot({ bins }: { bins: readonly PredictionCalibrationBin[] }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const width = useWidth(boxRef, 420);
  const size = Math.max(240, Math.min(width, 460));
  const margin = { top: 12, right: 14, bottom: 40, left: 58 };
  const plot = { left: margin.left, right: size - margin.right, top: margin.top, bottom: size - margin.bottom };
  const x = (v: number) => plot.left + v * (plot.right - plot.left);
  const y = (v: number) => plot.bottom - v * (plot.bottom - plot.top);
  const points = calibrationPoints(bins);
  const most = Math.max(1, ...points.map((p) => p.bin.count));
  const titleId = useId();
  const descId = useId();
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1];
  const description =
    points.length === 0
      ? 'No resolved forecast yet.'
      : points
          .map((p) => `forecasts ${pct(p.bin.from)} to ${pct(p.bin.to)}: ${p.bin.count}, mean ${formatProbability(p.x)}, happened ${formatProbability(p.y)} (95 % interval ${formatProbability(p.low)} to ${formatProbability(p.high)})`)
          .join('; ');
  return (
    <figure className="pm-chart pm-calibration">
      <div ref={boxRef} className="pm-svg-box">
        <svg className="pm-svg" width={size} height={size} viewBox={`0 0 ${size} ${size}`} role="img" aria-labelledby={titleId} aria-describedby={descId} data-testid="calibration-plot">
          <title id={titleId}>Calibration: how often what you forecast happened</title>
          <desc id={descId}>{description}</desc>
          <g aria-hidden="true">
            {ticks.map((tick) => (
              <g key={tick}>
                <line className="pm-svg__grid" x1={x(tick)} x2={x(tick)} y1={plot.top} y2={plot.bottom} />
                <line className="pm-svg__grid" x1={plot.left} x2={plot.right} y1={y(tick)} y2={y(tick)} />
                <text className="pm-svg__tick" x={x(tick)} y={plot.bottom + 16} textAnchor={tick === 0 ? 'start' : tick === 1 ? 'end' : 'middle'}>
                  {pct(tick)}
                </text>
                <text className="pm-svg__tick" x={plot.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
                  {pct(tick)}
                </text>
              </g>
            ))}
            <text className="pm-svg__axis" x={(plot.left + plot.right) / 2} y={size - 4} textAnchor="middle">
              Your forecast
            </text>
            <text className="pm-svg__axis" transform={`translate(12 ${(plot.top + plot.bottom) / 2}) rotate(-90)`} textAnchor="middle">
              Happened
            </text>
            <line className="pm-svg__diagonal" x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} />
          </g>
          {points.map((p) => {
            const r = 3.5 + 4.5 * Math.sqrt(p.bin.count / most);
            return (
              <g key={p.bin.from} className="pm-svg__bin">
                <line className="pm-svg__interval" x1={x(p.x)} x2={x(p.x)} y1={y(p.low)} y2={y(p.high)} />
                <line className="pm-svg__interval" x1={x(p.x) - 5} x2={x(p.x) + 5} y1={y(p.low)} y2={y(p.low)} />
                <line className="pm-svg__interval" x1={x(p.x) - 5} x2={x(p.x) + 5} y1={y(p.high)} y2={y(p.high)} />
                <circle className="pm-svg__point" cx={x(p.x)} cy={y(p.y)} r={r}>
                  <title>{`${pct(p.bin.from)}–${pct(p.bin.to)}: ${p.bin.count} forecasts, mean ${formatProbability(p.x)}, happened ${formatProbability(p.y)}`}</title>
                </circle>
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption className="pm-chart__caption">
        Points on the dashed diagonal are perfectly calibrated: of the forecasts you gave about 70 %, about 70 % happened. Bars are 95 % Wilson intervals; larger points hold more forecasts.
      </figcaption>
      <details className="pm-disclosure">
        <summary>Calibration table (10 bins)</summary>
        <div className="table-scroll" role="region" aria-label="Calibration bins" tabIndex={0}>
          <table className="data-table pm-small-table">
            <caption className="visually-hidden">Forecasts per bin, how often they happened, and the 95 % interval</caption>
            <thead>
              <tr>
                <th scope="col">Forecasts</th>
                <th scope="col" className="num">
                  Count
                </th>
                <th scope="col" className="num">
                  Mean forecast
                </th>
                <th scope="col" className="num">
                  Happened
                </th>
                <th scope="col" className="num">
                  95 % interval
                </th>
              </tr>
            </thead>
            <tbody>
              {bins.map((bin) => (
                <tr key={bin.from}>
                  <th scope="row">
                    {pct(bin.from)}–{pct(bin.to)}
                  </th>
                  <td className="num">{bin.count}</td>
                  <td className="num">{formatProbability(bin.meanForecast)}</td>
                  <td className="num">{formatProbability(bin.observedRate)}</td>
                  <td className="num">{bin.low === null || bin.high === null ? '—' : `${formatProbability(bin.low)} – ${formatProbability(bin.high)}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** A scale from `low` to `high` widened to round steps (1, 2 or 5 times a power of ten), about four of them. */
export function niceScale(low: number, high: number): { low: number; high: number; ticks: number[] } {
  const span = high - low || 1;
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw) ?? 10 * power;
  const from = Math.floor(low / step + 1e-9) * step;
  const to = Math.ceil(high / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let tick = from; tick <= to + step / 2; tick += step) ticks.push(Math.round(tick / step) * step);
  return { low: from, high: to, ticks };
}

interface TrendChartProps {
  trend: readonly PredictionTrendPoint[];
  score: 'brier' | 'log';
}

const TREND_LABELS = {
  brier: { title: 'Brier score by month, yours against the market’s (lower is better)', yours: 'brier', market: 'marketBrier' },
  log: { title: 'Log score by month, yours against the market’s (higher is better)', yours: 'log', market: 'marketLog' },
} as const;

export function TrendChart({ trend, score }: TrendChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const width = Math.max(280, useWidth(boxRef, 640));
  const height = 220;
  const margin = { top: 12, right: 16, bottom: 28, left: 48 };
  const plot = { left: margin.left, right: width - margin.right, top: margin.top, bottom: height - margin.bottom };
  const labels = TREND_LABELS[score];
  const titleId = useId();
  const descId = useId();
  const points = [...trend].sort((a, b) => a.month.localeCompare(b.month));
  const yours = points.map((p) => p[labels.yours]);
  const market = points.map((p) => p[labels.market]);
  const values = [...yours, ...market].filter(Number.isFinite);
  // Brier from 0 (perfect) up; log scores from their lowest up to 0 (perfect); round steps between.
  const { low, high, ticks } = score === 'brier' ? niceScale(0, Math.max(...values, 0.05)) : niceScale(Math.min(...values, -0.05), 0);
  const x = (index: number) => (points.length === 1 ? (plot.left + plot.right) / 2 : plot.left + (index / (points.length - 1)) * (plot.right - plot.left));
  const y = (value: number) => plot.bottom - ((value - low) / (high - low)) * (plot.bottom - plot.top);
  const path = (series: readonly number[]) => series.map((value, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(' ');
  // At most about one month label per 80 px.
  const every = Math.max(1, Math.ceil(points.length / Math.max(1, Math.floor((plot.right - plot.left) / 80))));
  const description = points.map((p, i) => `${formatMonth(p.month)}: yours ${formatScore(yours[i]!)}, market ${formatScore(market[i]!)} over ${p.count} forecasts`).join('; ');
  return (
    <figure className="pm-chart">
      <figcaption className="pm-chart__title">{labels.title}</figcaption>
      <div ref={boxRef} className="pm-svg-box">
        <svg className="pm-svg" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} aria-describedby={descId} data-testid={`trend-${score}`}>
          <title id={titleId}>{labels.title}</title>
          <desc id={descId}>{description}</desc>
          <g aria-hidden="true">
            {ticks.map((tick) => (
              <g key={tick}>
                <line className="pm-svg__grid" x1={plot.left} x2={plot.right} y1={y(tick)} y2={y(tick)} />
                <text className="pm-svg__tick" x={plot.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
                  {formatTick(tick)}
                </text>
              </g>
            ))}
            {points.map((p, index) =>
              index % every === 0 || index === points.length - 1 ? (
                <text key={p.month} className="pm-svg__tick" x={x(index)} y={height - 8} textAnchor={points.length === 1 ? 'middle' : index === 0 ? 'start' : index === points.length - 1 ? 'end' : 'middle'}>
                  {formatMonth(p.month)}
                </text>
              ) : null,
            )}
          </g>
          <path className="pm-svg__line pm-svg__line--market" d={path(market)} />
          <path className="pm-svg__line pm-svg__line--yours" d={path(yours)} />
          {points.map((p, index) => (
            <g key={p.month}>
              <circle className="pm-svg__dot pm-svg__dot--market" cx={x(index)} cy={y(market[index]!)} r={3}>
                <title>{`${formatMonth(p.month)} market: ${formatScore(market[index]!)}`}</title>
              </circle>
              <circle className="pm-svg__dot pm-svg__dot--yours" cx={x(index)} cy={y(yours[index]!)} r={3.5}>
                <title>{`${formatMonth(p.month)} you: ${formatScore(yours[index]!)} (${p.count} forecasts)`}</title>
              </circle>
            </g>
          ))}
        </svg>
      </div>
      <ul className="pm-legend pm-legend--list" aria-hidden="true">
        <li>
          <span className="pm-legend__line pm-legend__line--yours" /> You
        </li>
        <li>
          <span className="pm-legend__line pm-legend__line--market" /> The market price when you forecast
        </li>
      </ul>
    </figure>
  );
}
