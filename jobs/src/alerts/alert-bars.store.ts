import type { DataSource, EntityManager } from 'typeorm';
import type { CandleInterval } from '../prices/prices.shapes';

/** A stored closed bar as the bar conditions read it (prices as the decimal strings price_bars holds). */
export interface StoredBar {
  open: string;
  high: string;
  low: string;
  close: string;
}

/**
 * The newest `limit` bars of a symbol's interval up to and including `upTo` (oldest first), the
 * newest one's open time (the caller checks it is the bar that closed) and the market's type (which
 * annualises realised volatility). Indicator conditions read the closes; volatility conditions all four prices.
 */
export async function barsUpTo(
  db: DataSource | EntityManager,
  symbol: string,
  interval: CandleInterval,
  upTo: Date,
  limit: number,
): Promise<{ newestOpenTime: Date | null; marketType: string | null; exchangeId: string | null; bars: StoredBar[] }> {
  const rows: (StoredBar & { open_time: Date; type: string; exchange_id: string | null })[] = await db.query(
    `SELECT b.open_time, b.open, b.high, b.low, b.close, m.type, m.exchange_id FROM price_bars b JOIN markets m ON m.id = b.market_id
     WHERE m.symbol = $1 AND b.interval = $2 AND b.open_time <= $3 ORDER BY b.open_time DESC LIMIT $4`,
    [symbol, interval, upTo, limit],
  );
  return {
    newestOpenTime: rows.length ? rows[0].open_time : null,
    marketType: rows.length ? rows[0].type : null,
    exchangeId: rows.length ? rows[0].exchange_id : null,
    bars: rows.reverse().map(({ open, high, low, close }) => ({ open, high, low, close })),
  };
}

/**
 * The close of the newest stored bar of a symbol's interval opening in [from, before), or null: the
 * previous session's last close of an opening gap (opening-gap.ts, previousCloseWindow).
 */
export async function lastCloseIn(db: DataSource | EntityManager, symbol: string, interval: CandleInterval, from: Date, before: Date): Promise<string | null> {
  const rows: { close: string }[] = await db.query(
    `SELECT b.close FROM price_bars b JOIN markets m ON m.id = b.market_id
     WHERE m.symbol = $1 AND b.interval = $2 AND b.open_time >= $3 AND b.open_time < $4 ORDER BY b.open_time DESC LIMIT 1`,
    [symbol, interval, from, before],
  );
  return rows[0]?.close ?? null;
}
