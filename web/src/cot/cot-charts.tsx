// Inline SVG charts for the COT instrument page. Each chart is a figure with a caption, an SVG
// titled and described for screen readers, and the same numbers as a table behind a disclosure.
import { useId, type ReactNode } from 'react';
import { bandOf, chartDomain, linePath, linearScale, niceDomain, pointX, ticks, type Domain } from './cot-scale';

const WIDTH = 960;
const HEIGHT = 300;
const MARGIN = { top: 12, right: 16, bottom: 30, left: 72 };
const PLOT = { left: MARGIN.left, right: WIDTH - MARGIN.right, top: MARGIN.top, bottom: HEIGHT - MARGIN.bottom };

export interface ChartSeries {
  key: string;
  label: string;
  values: readonly (number | null)[];
}

export interface ChartBand {
  from: number;
  to: number;
  label: string;
  tone: 'long' | 'short';
}

interface FrameProps {
  title: string;
  description: string;
  dates: readonly string[];
  series: readonly ChartSeries[];
  formatValue: (value: number | null) => string;
  children: (ids: { titleId: string; descId: string }) => ReactNode;
  legend?: ReactNode;
}

/** Figure, caption, legend and data-table fallback shared by both charts. */
function ChartFrame({ title, description, dates, series, formatValue, children, legend }: FrameProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  return (
    <figure className="cot-chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="cot-chart__caption">
        {title}
      </figcaption>
      {dates.length === 0 ? (
        <p className="empty-state">No reports in this range.</p>
      ) : (
        <>
          {children({ titleId, descId })}
          {legend}
          <span id={descId} hidden>
            {description}
          </span>
          <details className="cot-chart__data">
            <summary>Data table: {title}</summary>
            <div className="table-scroll">
              <table className="data-table cot-chart__table">
                <caption className="visually-hidden">{title}</caption>
                <thead>
                  <tr>
                    <th scope="col">Report date</th>
                    {series.map((s) => (
                      <th scope="col" key={s.key}>
                        {s.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {dates.map((date, index) => (
                    <tr key={date}>
                      <th scope="row">{date}</th>
                      {series.map((s) => (
                        <td key={s.key}>{formatValue(s.values[index] ?? null)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </figure>
  );
}

/** Date labels along the x axis: first, middle and last report. */
function xLabels(dates: readonly string[]): { index: number; date: string }[] {
  if (dates.length === 0) return [];
  const picks = new Set([0, Math.floor((dates.length - 1) / 2), dates.length - 1]);
  return [...picks].map((index) => ({ index, date: dates[index] ?? '' }));
}

function Axes({ domain, y, dates, formatTick }: { domain: Domain; y: (v: number) => number; dates: readonly string[]; formatTick: (v: number) => string }) {
  const labels = xLabels(dates);
  return (
    <g className="cot-chart__axes" aria-hidden="true">
      {ticks(domain, 5).map((tick) => (
        <g key={tick}>
          <line className={tick === 0 ? 'cot-chart__zero' : 'cot-chart__grid'} x1={PLOT.left} x2={PLOT.right} y1={y(tick)} y2={y(tick)} />
          <text className="cot-chart__tick" x={PLOT.left - 8} y={y(tick)} dy="0.32em" textAnchor="end">
            {formatTick(tick)}
          </text>
        </g>
      ))}
      {labels.map(({ index, date }) => {
        const x = pointX(index, dates.length, PLOT.left, PLOT.right);
        const anchor = dates.length === 1 ? 'middle' : index === 0 ? 'start' : index === dates.length - 1 ? 'end' : 'middle';
        return (
          <text key={index} className="cot-chart__tick" x={x} y={HEIGHT - 8} textAnchor={anchor}>
            {date}
          </text>
        );
      })}
    </g>
  );
}

function Legend({ series }: { series: readonly ChartSeries[] }) {
  return (
    <ul className="cot-chart__legend" aria-hidden="true">
      {series.map((s) => (
        <li key={s.key}>
          <svg width="28" height="10" className="cot-chart__swatch">
            <line x1="0" x2="28" y1="5" y2="5" className={`cot-line cot-line--${s.key}`} />
          </svg>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

function Shade({ shade, count }: { shade: { from: number; to: number; label: string }; count: number }) {
  const half = count > 1 ? (PLOT.right - PLOT.left) / (count - 1) / 2 : (PLOT.right - PLOT.left) / 2;
  const left = Math.max(PLOT.left, pointX(shade.from, count, PLOT.left, PLOT.right) - half);
  const right = Math.min(PLOT.right, pointX(shade.to, count, PLOT.left, PLOT.right) + half);
  return (
    <g className="cot-chart__shade">
      <rect x={left} width={Math.max(0, right - left)} y={PLOT.top} height={PLOT.bottom - PLOT.top} />
      <text className="cot-chart__band-label" x={left + 4} y={PLOT.bottom - 6} aria-hidden="true">
        {shade.label}
      </text>
    </g>
  );
}

export interface LineChartProps {
  title: string;
  description: string;
  dates: readonly string[];
  series: readonly ChartSeries[];
  formatValue: (value: number | null) => string;
  formatTick?: (value: number) => string;
  /** A fixed domain (percentiles: 0–100); otherwise from the values, widened to nice ticks. */
  domain?: Domain;
  includeZero?: boolean;
  bands?: readonly ChartBand[];
  /** Reports drawn on a shaded background (indexes, inclusive), e.g. the provisional ones. */
  shade?: { from: number; to: number; label: string } | null;
}

export function LineChart({ title, description, dates, series, formatValue, formatTick = String, domain, includeZero, bands = [], shade = null }: LineChartProps) {
  const drawn = domain ?? niceDomain(chartDomain(series.flatMap((s) => s.values), { includeZero }));
  const y = linearScale(drawn, [PLOT.bottom, PLOT.top]);
  const x = (index: number): number => pointX(index, dates.length, PLOT.left, PLOT.right);
  // Dots only where a line cannot show the value: short series and points without neighbours.
  const showDots = dates.length <= 2;
  return (
    <ChartFrame title={title} description={description} dates={dates} series={series} formatValue={formatValue} legend={<Legend series={series} />}>
      {({ titleId, descId }) => (
        <svg className="cot-chart__svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} aria-describedby={descId}>
          <title id={titleId}>{title}</title>
          {shade && dates.length > 0 && <Shade shade={shade} count={dates.length} />}
          {bands.map((band) => (
            <g key={band.label} className={`cot-chart__band cot-chart__band--${band.tone}`}>
              <rect x={PLOT.left} width={PLOT.right - PLOT.left} y={y(band.to)} height={Math.abs(y(band.from) - y(band.to))} />
              <text className="cot-chart__band-label" x={PLOT.right - 4} y={y(band.to) + 12} textAnchor="end" aria-hidden="true">
                {band.label}
              </text>
            </g>
          ))}
          <Axes domain={drawn} y={y} dates={dates} formatTick={formatTick} />
          {series.map((s) => (
            <g key={s.key}>
              <path
                className={`cot-line cot-line--${s.key}`}
                d={linePath(s.values.map((value, index) => ({ x: x(index), y: value === null ? null : y(value) })))}
              />
              {s.values.map((value, index) =>
                value !== null && (showDots || (s.values[index - 1] ?? null) === null && (s.values[index + 1] ?? null) === null) ? (
                  <circle key={index} className={`cot-dot cot-dot--${s.key}`} cx={x(index)} cy={y(value)} r={3.5}>
                    <title>{`${dates[index] ?? ''} ${s.label}: ${formatValue(value)}`}</title>
                  </circle>
                ) : null,
              )}
            </g>
          ))}
        </svg>
      )}
    </ChartFrame>
  );
}

export interface BarChartProps {
  title: string;
  description: string;
  dates: readonly string[];
  series: ChartSeries;
  formatValue: (value: number | null) => string;
  formatTick?: (value: number) => string;
}

export function BarChart({ title, description, dates, series, formatValue, formatTick = String }: BarChartProps) {
  const drawn = niceDomain(chartDomain(series.values, { includeZero: true }));
  const y = linearScale(drawn, [PLOT.bottom, PLOT.top]);
  return (
    <ChartFrame title={title} description={description} dates={dates} series={[series]} formatValue={formatValue}>
      {({ titleId, descId }) => (
        <svg className="cot-chart__svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} aria-describedby={descId}>
          <title id={titleId}>{title}</title>
          <Axes domain={drawn} y={y} dates={dates} formatTick={formatTick} />
          {series.values.map((value, index) => {
            if (value === null) return null;
            // Bars share the line charts' x positions: each bar is centred on its report's x.
            const slot = bandOf(0, dates.length, PLOT.left, PLOT.right);
            const cx = pointX(index, dates.length, PLOT.left + slot.width / 2, PLOT.right - slot.width / 2);
            const top = Math.min(y(value), y(0));
            return (
              <rect key={index} className={`cot-bar cot-bar--${series.key}`} x={cx - slot.width / 2} width={slot.width} y={top} height={Math.max(0.5, Math.abs(y(value) - y(0)))}>
                <title>{`${dates[index] ?? ''}: ${formatValue(value)}`}</title>
              </rect>
            );
          })}
        </svg>
      )}
    </ChartFrame>
  );
}
