// The event page's price chart: daily closes since the IPO (the prices feature's bars) on a time
// axis that runs on to the lock-up's end, with the expiry, the IPO price and any early-release
// price trigger marked. A small SVG (the expiry is usually in the future, where a candle chart has
// no bar to mark); its labels are HTML laid over it so they stay legible at any width.
import type { LockupEarlyReleaseView } from '@tickerbell/jobs/lockups/shapes';
import { formatDate, formatPrice } from './lockups-client';

const DAY_MS = 86_400_000;
const W = 1000;
const H = 300;

const dayMs = (isoDay: string) => Date.parse(`${isoDay}T00:00:00Z`);

export interface ChartGeometry {
  path: string;
  x: (isoDay: string) => number;
  y: (price: number) => number;
  ticks: number[];
  start: string;
  end: string;
}

/** Scales: x from the first close (or IPO) to the expiry (or the last close), y over closes, IPO price and triggers. */
export function chartGeometry(prices: readonly { date: string; close: string }[], levels: readonly number[], ipoDate: string, expiry: string | null): ChartGeometry | null {
  const points = prices.map((p) => ({ t: dayMs(p.date), v: Number(p.close) })).filter((p) => Number.isFinite(p.v) && Number.isFinite(p.t));
  if (points.length === 0) return null;
  const start = Math.min(points[0]!.t, dayMs(ipoDate));
  const lastClose = points[points.length - 1]!.t;
  const end = Math.max(lastClose, expiry ? dayMs(expiry) + 3 * DAY_MS : lastClose);
  const values = [...points.map((p) => p.v), ...levels.filter((v) => Number.isFinite(v) && v > 0)];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  const pad = Math.max((hi - lo) * 0.08, hi * 0.02, 0.01);
  lo = Math.max(0, lo - pad);
  hi += pad;
  const x = (isoDay: string) => ((dayMs(isoDay) - start) / Math.max(end - start, DAY_MS)) * W;
  const y = (price: number) => H - ((price - lo) / (hi - lo)) * H;
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${(((p.t - start) / Math.max(end - start, DAY_MS)) * W).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
  const step = niceStep((hi - lo) / 4);
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) ticks.push(Number(v.toFixed(6)));
  return { path, x, y, ticks, start: new Date(start).toISOString().slice(0, 10), end: new Date(end).toISOString().slice(0, 10) };
}

function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const n = raw / power;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * power;
}

const pct = (value: number, of: number) => `${((value / of) * 100).toFixed(2)}%`;

export function LockupPriceChart({
  ticker,
  prices,
  ipoDate,
  ipoPrice,
  expiry,
  triggers,
  pricesSource,
}: {
  ticker: string;
  prices: readonly { date: string; close: string }[];
  ipoDate: string;
  ipoPrice: string | null;
  expiry: string | null;
  triggers: readonly LockupEarlyReleaseView[];
  pricesSource: string | null;
}) {
  const ipo = ipoPrice === null ? null : Number(ipoPrice);
  const triggerPrices = ipo === null ? [] : triggers.filter((t) => t.priceMultiple !== null).map((t) => ({ price: ipo * t.priceMultiple!, multiple: t.priceMultiple! }));
  const geometry = chartGeometry(prices, [...(ipo === null ? [] : [ipo]), ...triggerPrices.map((t) => t.price)], ipoDate, expiry);
  if (!geometry) {
    return <p className="empty-state">No daily closes yet for {ticker}: the prices feature fills them after the event is found (a backfill of daily bars).</p>;
  }
  const first = prices[0]!;
  const last = prices[prices.length - 1]!;
  const change = ipo ? (Number(last.close) / ipo - 1) * 100 : null;
  const summary = `${ticker} closed at ${formatPrice(last.close)} on ${formatDate(last.date)}${change === null ? '' : `, ${change >= 0 ? 'up' : 'down'} ${Math.abs(change).toFixed(1)} % from the IPO price of ${formatPrice(ipo)}`}; first close ${formatPrice(first.close)} on ${formatDate(first.date)}.${expiry ? ` The lock-up ends on ${formatDate(expiry)}.` : ''}`;
  const expiryX = expiry ? geometry.x(expiry) : null;
  return (
    <figure className="lockup-chart">
      <div className="lockup-chart__plot">
        <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={summary}>
          {geometry.ticks.map((tick) => (
            <line key={tick} x1={0} x2={W} y1={geometry.y(tick)} y2={geometry.y(tick)} className="lockup-chart__grid" vectorEffect="non-scaling-stroke" />
          ))}
          {ipo !== null && <line x1={0} x2={W} y1={geometry.y(ipo)} y2={geometry.y(ipo)} className="lockup-chart__ipo" vectorEffect="non-scaling-stroke" />}
          {triggerPrices.map((t) => (
            <line key={t.multiple} x1={0} x2={W} y1={geometry.y(t.price)} y2={geometry.y(t.price)} className="lockup-chart__trigger" vectorEffect="non-scaling-stroke" />
          ))}
          {expiryX !== null && <rect x={expiryX} y={0} width={Math.max(W - expiryX, 0)} height={H} className="lockup-chart__after" />}
          {expiryX !== null && <line x1={expiryX} x2={expiryX} y1={0} y2={H} className="lockup-chart__expiry" vectorEffect="non-scaling-stroke" />}
          <path d={geometry.path} className="lockup-chart__line" vectorEffect="non-scaling-stroke" fill="none" />
        </svg>
        {geometry.ticks.map((tick) => (
          <span key={tick} className="lockup-chart__tick" style={{ top: pct(geometry.y(tick), H) }} aria-hidden="true">
            {formatPrice(tick)}
          </span>
        ))}
        {expiryX !== null && (
          <span className={`lockup-chart__flag${expiryX > W * 0.7 ? ' lockup-chart__flag--left' : ''}`} style={{ left: pct(expiryX, W) }} aria-hidden="true">
            Lock-up ends {formatDate(expiry)}
          </span>
        )}
      </div>
      <div className="lockup-chart__axis" aria-hidden="true">
        <span>{formatDate(geometry.start)}</span>
        <span>{formatDate(geometry.end)}</span>
      </div>
      <ul className="lockup-chart__legend">
        <li>
          <span className="lockup-key lockup-key--line" aria-hidden="true" /> Daily close
        </li>
        {ipo !== null && (
          <li>
            <span className="lockup-key lockup-key--ipo" aria-hidden="true" /> IPO price {formatPrice(ipo)}
          </li>
        )}
        {triggerPrices.map((t) => (
          <li key={t.multiple}>
            <span className="lockup-key lockup-key--trigger" aria-hidden="true" /> Early-release trigger {formatPrice(t.price)} ({t.multiple.toLocaleString('en-US', { maximumFractionDigits: 2 })}× IPO)
          </li>
        ))}
        {expiry && (
          <li>
            <span className="lockup-key lockup-key--expiry" aria-hidden="true" /> Lock-up ends {formatDate(expiry)}
          </li>
        )}
      </ul>
      <figcaption className="lockup-chart__caption">
        {summary} {pricesSource && <>Prices: {pricesSource}.</>}
      </figcaption>
    </figure>
  );
}
