import type { DataSource, EntityManager } from 'typeorm';
import { PredictionMarket } from '@tickerbell/entities';
import { PredictionsError } from './predictions.errors';
import { roundDecimal, type MarketContent } from './predictions.parse';
import type {
  PredictionDataSource,
  PredictionMarketSort,
  PredictionMarketsPage,
  PredictionMarketView,
  PredictionResolution,
  PredictionSnapshotPoint,
  PredictionSourceView,
} from './predictions.shapes';

// Every query of Polymarket markets and our price snapshots: the reads the api and the other parts of
// the domain use (marketView, findMarket, listMarkets, marketHistory, priceAt, predictionsSourceView),
// the sync's upsert (a row is written only when its content hash changed) and the snapshots.

type Db = DataSource | EntityManager;

/** The source_health row of Gamma (sync) and of the CLOB (snapshots). */
export const POLYMARKET_GAMMA_SOURCE = 'polymarket-gamma';
export const POLYMARKET_CLOB_SOURCE = 'polymarket-clob';

const iso = (at: Date | null | undefined) => (at ? at.toISOString() : null);

/** Polymarket's page of a market: its event's page (markets of one event share it), else the market's slug. */
export const polymarketUrl = (row: Pick<PredictionMarket, 'eventSlug' | 'slug'>) => `https://polymarket.com/event/${encodeURIComponent(row.eventSlug || row.slug)}`;

/** A numeric column (TypeORM hands numerics back as strings) or Gamma's price string, with 4 decimals (rounded exactly), or null. */
const price4 = (value: string | null | undefined) => (value === null || value === undefined ? null : roundDecimal(value, 4));

/** A market row as the browser and the market page show it. */
export function marketView(row: PredictionMarket): PredictionMarketView {
  const prices = row.currentPrices ?? {};
  return {
    id: row.id,
    polymarketId: row.polymarketId,
    slug: row.slug,
    question: row.question,
    description: row.description,
    category: row.category,
    tags: row.tags ?? [],
    endDate: iso(row.endDate),
    closedTime: iso(row.closedTime),
    outcomes: row.outcomes ?? [],
    currentPrices: Object.fromEntries(Object.entries(prices).map(([name, p]) => [name, price4(p) as string])),
    yesPrice: price4(row.yesPrice),
    bestBid: price4(row.bestBid),
    bestAsk: price4(row.bestAsk),
    spread: price4(row.spread),
    volume24h: row.volume24h,
    volume: row.volume,
    liquidity: row.liquidity,
    isActive: row.isActive,
    closed: row.closed,
    eventId: row.eventId,
    eventTitle: row.eventTitle,
    negRisk: row.negRisk,
    negRiskAugmented: row.negRiskAugmented,
    resolution: (row.resolution as PredictionResolution | null) ?? null,
    resolvedAt: iso(row.resolvedAt),
    dataSource: row.dataSource as PredictionDataSource,
    polymarketUrl: polymarketUrl(row),
    syncedAt: (row.syncedAt as Date).toISOString(),
  };
}

/** A market by our id, or null. */
export function findMarket(db: Db, id: number): Promise<PredictionMarket | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return Promise.resolve(null);
  return db.getRepository(PredictionMarket).findOneBy({ id });
}

/** A market by Polymarket's (Gamma) id, or null. */
export function findMarketByPolymarketId(db: Db, polymarketId: string): Promise<PredictionMarket | null> {
  return db.getRepository(PredictionMarket).findOneBy({ polymarketId });
}

/**
 * The market's YES price at `at`: the newest snapshot taken at or before `at`, else the market row's
 * yesPrice (with its best bid and ask) as of its syncedAt; null when neither knows a price.
 */
export async function priceAt(
  db: Db,
  marketId: number,
  at: Date,
): Promise<{ price: string; bestBid: string | null; bestAsk: string | null; at: Date } | null> {
  const [snapshot] = (await db.query(
    `SELECT price::text AS price, best_bid::text AS best_bid, best_ask::text AS best_ask, taken_at
       FROM prediction_market_snapshots WHERE market_id = $1 AND taken_at <= $2 ORDER BY taken_at DESC LIMIT 1`,
    [marketId, at],
  )) as { price: string; best_bid: string | null; best_ask: string | null; taken_at: Date }[];
  if (snapshot) return { price: snapshot.price, bestBid: snapshot.best_bid, bestAsk: snapshot.best_ask, at: snapshot.taken_at };
  const [row] = (await db.query(
    `SELECT yes_price::text AS price, best_bid::text AS best_bid, best_ask::text AS best_ask, synced_at FROM prediction_markets WHERE id = $1`,
    [marketId],
  )) as { price: string | null; best_bid: string | null; best_ask: string | null; synced_at: Date }[];
  if (!row || row.price === null) return null;
  return { price: row.price, bestBid: row.best_bid, bestAsk: row.best_ask, at: row.synced_at };
}

// ---------------------------------------------------------------------------------------------
// The browser.

export interface ListMarketsQuery {
  /** Words of the question (case-insensitive substring). */
  q?: string;
  category?: string;
  status: 'active' | 'closed' | 'all';
  sort: PredictionMarketSort;
  /** Least 24 h volume (USD), the figure the `volume` sort orders by. */
  minVolume?: number;
  minLiquidity?: number;
  /** Only markets whose end date is between now and now + this many days. */
  closingWithinDays?: number;
  cursor?: string;
  limit: number;
}

/** How each sort orders (nulls last, then id as the tie-break) and how its value is cast back from a cursor. */
const SORTS: Record<PredictionMarketSort, { expr: string; dir: 'asc' | 'desc'; cast: string; nullable: boolean }> = {
  volume: { expr: 'm.volume_24h', dir: 'desc', cast: 'numeric', nullable: true },
  liquidity: { expr: 'm.liquidity', dir: 'desc', cast: 'numeric', nullable: true },
  // Markets still to close, soonest first (the sort keeps only end dates from now on).
  closing_soon: { expr: 'm.end_date', dir: 'asc', cast: 'timestamptz', nullable: false },
  newest: { expr: 'm.id', dir: 'desc', cast: 'integer', nullable: false },
};

const BAD_CURSOR = () => new PredictionsError('bad_cursor', 'The cursor is not one this api gave out: start again without it', 'cursor');

/** Cursor: base64url of [sort, value of the last row (null for a null value), id of the last row]. */
function encodeCursor(sort: PredictionMarketSort, value: string | null, id: number): string {
  return Buffer.from(JSON.stringify([sort, value, id]), 'utf8').toString('base64url');
}

function decodeCursor(raw: string, sort: PredictionMarketSort): { value: string | null; id: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw BAD_CURSOR();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw BAD_CURSOR();
  const [cursorSort, value, id] = parsed as unknown[];
  if (cursorSort !== sort) throw new PredictionsError('bad_cursor', 'The cursor belongs to another sort: start again without it', 'cursor');
  if (!Number.isSafeInteger(id) || (id as number) < 1 || (id as number) > 2_147_483_647) throw BAD_CURSOR();
  if (value !== null && typeof value !== 'string') throw BAD_CURSOR();
  const spec = SORTS[sort];
  if (value === null ? !spec.nullable : spec.cast === 'timestamptz' ? Number.isNaN(Date.parse(value)) : !/^-?\d{1,22}(\.\d{1,4})?$/.test(value)) throw BAD_CURSOR();
  return { value, id: id as number };
}

const MARKET_COLUMNS = `m.*`;

/** Rows from a raw `SELECT m.*` mapped to the entity (the repository's column names). */
function rowsToEntities(db: Db, raws: Record<string, unknown>[]): PredictionMarket[] {
  const repo = db.getRepository(PredictionMarket);
  const columns = repo.metadata.columns;
  return raws.map((raw) => {
    const entity = repo.create();
    for (const column of columns) {
      const value = raw[column.databaseName];
      if (value === undefined) continue;
      (entity as unknown as Record<string, unknown>)[column.propertyName] = column.type === 'numeric' && value !== null ? String(value) : value;
    }
    return entity;
  });
}

/** One page of the browser, with the active categories and the source, newest data of our last sync. */
export async function listMarkets(db: Db, query: ListMarketsQuery, now: Date): Promise<PredictionMarketsPage> {
  const spec = SORTS[query.sort];
  const cursor = query.cursor ? decodeCursor(query.cursor, query.sort) : null;
  const values: unknown[] = [];
  const add = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const where: string[] = [];
  if (query.status === 'active') where.push('m.is_active');
  else if (query.status === 'closed') where.push('m.closed');
  const q = query.q?.trim();
  if (q) where.push(`m.question ILIKE ${add(`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  if (query.category) where.push(`m.category = ${add(query.category)}`);
  if (query.minVolume !== undefined) where.push(`m.volume_24h >= ${add(query.minVolume)}`);
  if (query.minLiquidity !== undefined) where.push(`m.liquidity >= ${add(query.minLiquidity)}`);
  if (query.closingWithinDays !== undefined) {
    where.push(`m.end_date >= ${add(now)} AND m.end_date <= ${add(new Date(now.getTime() + query.closingWithinDays * 86_400_000))}`);
  }
  if (query.sort === 'closing_soon') where.push(`m.end_date >= ${add(now)}`);
  if (cursor) {
    const cmp = spec.dir === 'desc' ? '<' : '>';
    const id = add(cursor.id);
    if (cursor.value === null) where.push(`${spec.expr} IS NULL AND m.id ${cmp} ${id}::int`);
    else {
      const v = `${add(cursor.value)}::${spec.cast}`;
      const after = `(${spec.expr} ${cmp} ${v} OR (${spec.expr} = ${v} AND m.id ${cmp} ${id}::int))`;
      where.push(spec.nullable ? `(${after} OR ${spec.expr} IS NULL)` : after);
    }
  }
  const order = `${spec.nullable ? `${spec.expr} IS NULL, ` : ''}${spec.expr} ${spec.dir.toUpperCase()}, m.id ${spec.dir.toUpperCase()}`;
  const limit = Math.max(1, Math.min(query.limit, 200));
  const raws = (await db.query(
    `SELECT ${MARKET_COLUMNS}, (${spec.expr})::text AS sort_value FROM prediction_markets m
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${add(limit + 1)}`,
    values,
  )) as Record<string, unknown>[];
  const page = raws.slice(0, limit);
  const rows = rowsToEntities(db, page).map(marketView);
  const last = page[page.length - 1];
  const nextCursor =
    raws.length > limit && last ? encodeCursor(query.sort, spec.cast === 'timestamptz' && last.sort_value !== null ? (last.end_date as Date).toISOString() : (last.sort_value as string | null), last.id as number) : null;
  return { rows, nextCursor, categories: await activeCategories(db), source: await predictionsSourceView(db) };
}

/** Categories with their active market counts, most markets first (at most 100). */
export async function activeCategories(db: Db): Promise<{ category: string; markets: number }[]> {
  const rows = (await db.query(
    `SELECT category, count(*)::int AS markets FROM prediction_markets WHERE is_active AND category IS NOT NULL
      GROUP BY category ORDER BY markets DESC, category LIMIT 100`,
  )) as { category: string; markets: number }[];
  return rows;
}

/** Whether any market (active or not) has this category (follows of a category check it). */
export async function categoryExists(db: Db, category: string): Promise<boolean> {
  const rows = (await db.query(`SELECT 1 FROM prediction_markets WHERE category = $1 LIMIT 1`, [category])) as unknown[];
  return rows.length > 0;
}

/** Our snapshots of a market from `since`, oldest first. */
export async function marketHistory(db: Db, marketId: number, since: Date): Promise<PredictionSnapshotPoint[]> {
  const rows = (await db.query(
    `SELECT taken_at, price::text AS price, best_bid::text AS best_bid, best_ask::text AS best_ask
       FROM prediction_market_snapshots WHERE market_id = $1 AND taken_at >= $2 ORDER BY taken_at`,
    [marketId, since],
  )) as { taken_at: Date; price: string; best_bid: string | null; best_ask: string | null }[];
  return rows.map((r) => ({ at: r.taken_at.toISOString(), price: r.price, bestBid: r.best_bid, bestAsk: r.best_ask }));
}

/**
 * Which source feeds the markets (the Gamma client records its kind in source_health) and when it
 * last answered. Before any sync: the kind of the stored markets (`polymarket` rows: live), else replay.
 */
export async function predictionsSourceView(db: Db): Promise<PredictionSourceView> {
  const [health] = (await db.query(`SELECT last_success_at, details FROM source_health WHERE source = $1`, [POLYMARKET_GAMMA_SOURCE])) as {
    last_success_at: Date | null;
    details: Record<string, unknown> | null;
  }[];
  let kind: 'live' | 'replay';
  if (health?.details && typeof health.details.kind === 'string') kind = health.details.kind === 'live' ? 'live' : 'replay';
  else {
    const [row] = (await db.query(`SELECT 1 FROM prediction_markets WHERE data_source = 'polymarket' LIMIT 1`)) as unknown[];
    kind = row ? 'live' : 'replay';
  }
  return { kind, lastSyncAt: iso(health?.last_success_at ?? null) };
}

// ---------------------------------------------------------------------------------------------
// The sync's writes.

/** The columns a sync writes, with their Postgres types (jsonb_to_recordset reads the batch as one JSON parameter). */
const WRITE_COLUMNS: [column: string, type: string, value: (c: MarketContent) => unknown][] = [
  ['polymarket_id', 'varchar', (c) => c.polymarketId],
  ['condition_id', 'varchar', (c) => c.conditionId],
  ['slug', 'varchar', (c) => c.slug],
  ['question', 'text', (c) => c.question],
  ['description', 'text', (c) => c.description],
  ['category', 'varchar', (c) => c.category],
  ['subcategory', 'varchar', (c) => c.subcategory],
  ['tags', 'text[]', (c) => c.tags],
  ['end_date', 'timestamptz', (c) => iso(c.endDate)],
  ['closed_time', 'timestamptz', (c) => iso(c.closedTime)],
  ['resolution_source', 'text', (c) => c.resolutionSource],
  ['outcomes', 'jsonb', (c) => c.outcomes],
  ['current_prices', 'jsonb', (c) => c.currentPrices],
  ['yes_price', 'numeric', (c) => c.yesPrice],
  ['best_bid', 'numeric', (c) => c.bestBid],
  ['best_ask', 'numeric', (c) => c.bestAsk],
  ['spread', 'numeric', (c) => c.spread],
  ['volume_24h', 'numeric', (c) => c.volume24h],
  ['volume', 'numeric', (c) => c.volume],
  ['liquidity', 'numeric', (c) => c.liquidity],
  ['is_active', 'boolean', (c) => c.isActive],
  ['closed', 'boolean', (c) => c.closed],
  ['accepting_orders', 'boolean', (c) => c.acceptingOrders],
  ['event_id', 'varchar', (c) => c.eventId],
  ['event_slug', 'varchar', (c) => c.eventSlug],
  ['event_title', 'text', (c) => c.eventTitle],
  ['neg_risk', 'boolean', (c) => c.negRisk],
  ['neg_risk_augmented', 'boolean', (c) => c.negRiskAugmented],
  ['clob_token_ids', 'jsonb', (c) => c.clobTokenIds],
  ['resolution', 'varchar', (c) => c.resolution],
  ['source_updated_at', 'timestamptz', (c) => iso(c.sourceUpdatedAt)],
  ['content_hash', 'varchar', (c) => c.contentHash],
];

/** What one apply did. `resolved`: markets whose resolution is new (or changed), for the resolve jobs. */
export interface ApplyMarketsResult {
  inserted: number;
  changed: number;
  unchanged: number;
  /** Markets that became closed (or arrived closed). */
  closed: number;
  resolved: { marketId: number; polymarketId: string; resolution: PredictionResolution }[];
}

/** Rows per statement: one JSON parameter each, so only the statement's size bounds it. */
const APPLY_BATCH = 1000;

/**
 * Upserts markets by Polymarket id, writing only the new ones and those whose content hash changed
 * (an unchanged market is not touched: no row version, no syncedAt). A resolved market keeps the
 * resolution time it was first stored with; without one from Gamma it gets `now`. Run it inside a
 * transaction to apply a whole sync at once.
 */
export async function applyMarkets(db: Db, contents: readonly MarketContent[], opts: { dataSource: PredictionDataSource; now: Date }): Promise<ApplyMarketsResult> {
  const byId = new Map<string, MarketContent>();
  for (const c of contents) byId.set(c.polymarketId, c);
  const all = [...byId.values()];
  const result: ApplyMarketsResult = { inserted: 0, changed: 0, unchanged: 0, closed: 0, resolved: [] };
  for (let i = 0; i < all.length; i += APPLY_BATCH) {
    const batch = all.slice(i, i + APPLY_BATCH);
    const stored = new Map(
      (
        (await db.query(
          `SELECT id, polymarket_id, content_hash, closed, resolution, resolved_at FROM prediction_markets WHERE polymarket_id = ANY($1::varchar[])`,
          [batch.map((c) => c.polymarketId)],
        )) as { id: number; polymarket_id: string; content_hash: string; closed: boolean; resolution: string | null; resolved_at: Date | null }[]
      ).map((r) => [r.polymarket_id, r]),
    );
    const writes: Record<string, unknown>[] = [];
    const pending: { content: MarketContent; newlyResolved: boolean }[] = [];
    for (const c of batch) {
      const before = stored.get(c.polymarketId);
      if (before && before.content_hash === c.contentHash) {
        result.unchanged++;
        continue;
      }
      if (before) result.changed++;
      else result.inserted++;
      if (c.closed && !before?.closed) result.closed++;
      const sameResolution = before?.resolution === c.resolution;
      const resolvedAt = c.resolution === null ? null : sameResolution && before?.resolved_at ? before.resolved_at : (c.resolvedAt ?? opts.now);
      const row: Record<string, unknown> = Object.fromEntries(WRITE_COLUMNS.map(([column, , value]) => [column, value(c)]));
      row.resolved_at = iso(resolvedAt);
      writes.push(row);
      pending.push({ content: c, newlyResolved: c.resolution !== null && !sameResolution });
    }
    if (writes.length === 0) continue;
    const columns = [...WRITE_COLUMNS.map(([column, type]) => [column, type] as const), ['resolved_at', 'timestamptz'] as const];
    const names = columns.map(([column]) => column);
    const returned = (await db.query(
      `INSERT INTO prediction_markets (${names.join(', ')}, data_source, synced_at, created_at, updated_at)
       SELECT ${names.map((n) => `x.${n}`).join(', ')}, $2, $3, $3, $3
         FROM jsonb_to_recordset($1::jsonb) AS x(${columns.map(([column, type]) => `${column} ${type}`).join(', ')})
       ON CONFLICT (polymarket_id) DO UPDATE SET
         ${names.filter((n) => n !== 'polymarket_id').map((n) => `${n} = EXCLUDED.${n}`).join(', ')},
         data_source = EXCLUDED.data_source, synced_at = EXCLUDED.synced_at, updated_at = EXCLUDED.updated_at
       WHERE prediction_markets.content_hash IS DISTINCT FROM EXCLUDED.content_hash
       RETURNING id, polymarket_id`,
      [JSON.stringify(writes), opts.dataSource, opts.now],
    )) as { id: number; polymarket_id: string }[];
    const idOf = new Map(returned.map((r) => [r.polymarket_id, r.id]));
    for (const { content, newlyResolved } of pending) {
      const marketId = idOf.get(content.polymarketId);
      if (newlyResolved && marketId !== undefined) result.resolved.push({ marketId, polymarketId: content.polymarketId, resolution: content.resolution as PredictionResolution });
    }
  }
  return result;
}

/** How long a closed market whose resolution is pending is looked up again by each sync. */
export const PENDING_RESOLUTION_DAYS = 30;

/**
 * Polymarket ids the sync looks up by id when the listing does not return them: the markets we hold
 * as active (they may have closed), then closed markets still waiting for their resolution (closed in
 * the last PENDING_RESOLUTION_DAYS; Gamma's listing of active markets no longer returns them), oldest first.
 */
export async function marketsToRecheck(db: Db, now: Date): Promise<{ active: string[]; pending: string[] }> {
  const rows = (await db.query(
    `SELECT polymarket_id, is_active FROM prediction_markets
      WHERE is_active OR (closed AND resolution IS NULL AND COALESCE(closed_time, synced_at) >= $1)
      ORDER BY is_active DESC, id`,
    [new Date(now.getTime() - PENDING_RESOLUTION_DAYS * 86_400_000)],
  )) as { polymarket_id: string; is_active: boolean }[];
  return { active: rows.filter((r) => r.is_active).map((r) => r.polymarket_id), pending: rows.filter((r) => !r.is_active).map((r) => r.polymarket_id) };
}

// ---------------------------------------------------------------------------------------------
// Snapshots.

/** A market the snapshot step prices: its id, YES token and the price of our last sync. */
export interface TrackedMarket {
  id: number;
  polymarketId: string;
  yesToken: string | null;
  yesPrice: string | null;
  bestBid: string | null;
  bestAsk: string | null;
}

/** Active markets someone forecast (any forecast, current or past) or follows (the market, or its category). */
export async function trackedMarkets(db: Db): Promise<TrackedMarket[]> {
  const rows = (await db.query(
    `SELECT m.id, m.polymarket_id, m.clob_token_ids->>0 AS yes_token, m.yes_price::text AS yes_price,
            m.best_bid::text AS best_bid, m.best_ask::text AS best_ask
       FROM prediction_markets m
      WHERE m.is_active AND (
            EXISTS (SELECT 1 FROM user_predictions p WHERE p.market_id = m.id)
         OR EXISTS (SELECT 1 FROM prediction_follows f WHERE f.market_id = m.id)
         OR (m.category IS NOT NULL AND EXISTS (SELECT 1 FROM prediction_follows f WHERE f.category = m.category)))
      ORDER BY m.id`,
  )) as { id: number; polymarket_id: string; yes_token: string | null; yes_price: string | null; best_bid: string | null; best_ask: string | null }[];
  return rows.map((r) => ({ id: r.id, polymarketId: r.polymarket_id, yesToken: r.yes_token, yesPrice: r.yes_price, bestBid: r.best_bid, bestAsk: r.best_ask }));
}

export interface SnapshotRow {
  marketId: number;
  takenAt: Date;
  price: string;
  bestBid: string | null;
  bestAsk: string | null;
  /** gamma | clob | replay | import */
  source: string;
}

/** Records snapshots; one per market and time (a second write of the same slot is ignored). Answers how many were new. */
export async function recordSnapshots(db: Db, rows: readonly SnapshotRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = (await db.query(
    `INSERT INTO prediction_market_snapshots (market_id, taken_at, price, best_bid, best_ask, source)
     SELECT x.market_id, x.taken_at, x.price, x.best_bid, x.best_ask, x.source
       FROM jsonb_to_recordset($1::jsonb) AS x(market_id int, taken_at timestamptz, price numeric, best_bid numeric, best_ask numeric, source varchar)
     ON CONFLICT (market_id, taken_at) DO NOTHING
     RETURNING market_id`,
    [JSON.stringify(rows.map((r) => ({ market_id: r.marketId, taken_at: r.takenAt.toISOString(), price: r.price, best_bid: r.bestBid, best_ask: r.bestAsk, source: r.source })))],
  )) as unknown[];
  return inserted.length;
}

/** Snapshots older than this are thinned to one per market and UTC day (the newest of the day is kept). */
export const SNAPSHOT_FULL_DETAIL_DAYS = 90;
/** How far back past the cutoff one thinning looks (a week of missed runs is caught up). */
const THIN_WINDOW_DAYS = 7;

/**
 * Thins old snapshots: those taken more than SNAPSHOT_FULL_DETAIL_DAYS before `now` keep only the
 * last of each market's UTC day, so the history survives resolution (it is never deleted whole)
 * while its size stays bounded. Looks at a week before the cutoff each time. Answers rows deleted.
 */
export async function thinSnapshots(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - SNAPSHOT_FULL_DETAIL_DAYS * 86_400_000);
  const from = new Date(cutoff.getTime() - THIN_WINDOW_DAYS * 86_400_000);
  // TypeORM answers a DELETE with [rows, affected count].
  const [, deleted] = (await db.query(
    `DELETE FROM prediction_market_snapshots s USING (
        SELECT market_id, taken_at, row_number() OVER (PARTITION BY market_id, date_trunc('day', taken_at AT TIME ZONE 'UTC') ORDER BY taken_at DESC) AS n
          FROM prediction_market_snapshots WHERE taken_at >= $1 AND taken_at < $2) old
      WHERE old.n > 1 AND s.market_id = old.market_id AND s.taken_at = old.taken_at`,
    [from, cutoff],
  )) as [unknown[], number];
  return deleted;
}
