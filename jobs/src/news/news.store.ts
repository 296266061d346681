import type { DataSource, EntityManager } from 'typeorm';
import type { NewsMatch, MatchableMarket } from './news-matching';
import type { ParsedNewsItem } from './news-feed.parse';
import type { MarketNewsPage, NewsItemView, NewsMatchKind } from './news.shapes';

type Db = DataSource | EntityManager;

export interface StoredNewsItem {
  id: number;
  title: string;
  summary: string | null;
  cik: string | null;
}

/**
 * Inserts a source's items, or refreshes the ones already stored (same source and GUID/link):
 * a re-poll never adds a row twice. Answers the items that were new, for matching.
 */
export async function upsertNewsItems(db: Db, source: string, items: readonly ParsedNewsItem[], fetchedAt: Date): Promise<StoredNewsItem[]> {
  if (!items.length) return [];
  // One row per key: a feed that lists an item twice keeps its first listing.
  const byKey = new Map<string, ParsedNewsItem>();
  for (const item of items) if (!byKey.has(item.dedupeKey)) byKey.set(item.dedupeKey, item);
  const unique = [...byKey.values()];
  const rows: { id: number; title: string; summary: string | null; cik: string | null; inserted: boolean }[] = await db.query(
    `INSERT INTO news_items (source, dedupe_key, title, link, summary, published_at, fetched_at, form_type, cik, company)
     SELECT $1, t.dedupe_key, t.title, t.link, t.summary, COALESCE(t.published_at, $2), $2, t.form_type, t.cik, t.company
     FROM jsonb_to_recordset($3::jsonb) AS t(dedupe_key varchar, title varchar, link varchar, summary text,
       published_at timestamptz, form_type varchar, cik varchar, company varchar)
     ON CONFLICT (source, dedupe_key) DO UPDATE SET title = EXCLUDED.title, link = EXCLUDED.link, summary = EXCLUDED.summary,
       form_type = EXCLUDED.form_type, cik = EXCLUDED.cik, company = EXCLUDED.company
     -- An unchanged item is not rewritten: every poll sees the same items again.
     WHERE (news_items.title, news_items.link, news_items.summary, news_items.form_type, news_items.cik, news_items.company)
       IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.link, EXCLUDED.summary, EXCLUDED.form_type, EXCLUDED.cik, EXCLUDED.company)
     RETURNING id, title, summary, cik, (xmax = 0) AS inserted`,
    [
      source,
      fetchedAt,
      JSON.stringify(
        unique.map((item) => ({
          dedupe_key: item.dedupeKey,
          title: item.title,
          link: item.link,
          summary: item.summary,
          published_at: item.publishedAt?.toISOString() ?? null,
          form_type: item.formType,
          cik: item.cik,
          company: item.company,
        })),
      ),
    ],
  );
  return rows.filter((row) => row.inserted).map(({ id, title, summary, cik }) => ({ id, title, summary, cik }));
}

/** Keeps a source's newest `keep` items (by publication time) and deletes the rest with their matches. */
export async function trimNewsHistory(db: Db, source: string, keep: number): Promise<number> {
  const [, deleted]: [unknown, number] = await db.query(
    `DELETE FROM news_items WHERE id IN (
       SELECT id FROM news_items WHERE source = $1 ORDER BY published_at DESC, id DESC OFFSET $2)`,
    [source, keep],
  );
  return deleted;
}

/** Records which markets each item is about (idempotent). */
export async function saveNewsMatches(db: Db, matches: readonly { newsItemId: number; match: NewsMatch }[]): Promise<number> {
  if (!matches.length) return 0;
  const inserted: unknown[] = await db.query(
    `INSERT INTO news_item_markets (news_item_id, market_id, matched_by)
     SELECT t.news_item_id, t.market_id, t.matched_by FROM jsonb_to_recordset($1::jsonb) AS t(news_item_id int, market_id int, matched_by varchar)
     ON CONFLICT (news_item_id, market_id) DO NOTHING
     RETURNING 1`,
    [JSON.stringify(matches.map(({ newsItemId, match }) => ({ news_item_id: newsItemId, market_id: match.marketId, matched_by: match.matchedBy })))],
  );
  return inserted.length;
}

/** The links of a source's items that the consumers have not been told of yet (the poll's outbox), oldest poll first. */
export function unannouncedNewsLinks(db: Db, source: string): Promise<{ newsItemId: number; marketId: number; fetchedAt: Date }[]> {
  return db.query(
    `SELECT l.news_item_id AS "newsItemId", l.market_id AS "marketId", n.fetched_at AS "fetchedAt"
     FROM news_item_markets l JOIN news_items n ON n.id = l.news_item_id
     WHERE l.announced_at IS NULL AND n.source = $1
     ORDER BY n.fetched_at, l.news_item_id, l.market_id`,
    [source],
  );
}

/** Marks links as told to the consumers. */
export async function markNewsLinksAnnounced(db: Db, links: readonly { newsItemId: number; marketId: number }[], at: Date): Promise<void> {
  if (!links.length) return;
  await db.query(
    `UPDATE news_item_markets l SET announced_at = $3
     FROM unnest($1::int[], $2::int[]) AS t(news_item_id, market_id)
     WHERE l.news_item_id = t.news_item_id AND l.market_id = t.market_id AND l.announced_at IS NULL`,
    [links.map((l) => l.newsItemId), links.map((l) => l.marketId), at],
  );
}

/** Every market, as matching reads it. */
export function marketsForNewsMatching(db: Db): Promise<MatchableMarket[]> {
  return db.query('SELECT id, symbol, name, type, cik FROM markets ORDER BY id');
}

/** Sets each listed market's CIK from the SEC's ticker list (only markets that exist; existing CIKs kept). */
export async function setMarketCiks(db: Db, ciks: readonly { ticker: string; cik: string }[]): Promise<number> {
  if (!ciks.length) return 0;
  const [, updated]: [unknown, number] = await db.query(
    `UPDATE markets m SET cik = t.cik FROM jsonb_to_recordset($1::jsonb) AS t(ticker varchar, cik varchar)
     WHERE m.symbol = t.ticker AND m.type IN ('stock', 'etf') AND m.cik IS NULL`,
    [JSON.stringify(ciks)],
  );
  return updated;
}

/** A market's news, newest first, or null when there is no such market. */
export async function listMarketNews(db: Db, symbol: string, options: { page: number; limit: number }): Promise<MarketNewsPage | null> {
  const [market]: { id: number; symbol: string }[] = await db.query('SELECT id, symbol FROM markets WHERE symbol = $1', [symbol]);
  if (!market) return null;
  const [{ total }]: { total: number }[] = await db.query('SELECT count(*)::int AS total FROM news_item_markets WHERE market_id = $1', [market.id]);
  const rows: {
    id: number;
    source: string;
    title: string;
    link: string;
    summary: string | null;
    published_at: Date;
    fetched_at: Date;
    form_type: string | null;
    cik: string | null;
    company: string | null;
    matched_by: NewsMatchKind;
  }[] = await db.query(
    `SELECT n.id, n.source, n.title, n.link, n.summary, n.published_at, n.fetched_at, n.form_type, n.cik, n.company, m.matched_by
     FROM news_item_markets m JOIN news_items n ON n.id = m.news_item_id
     WHERE m.market_id = $1
     ORDER BY n.published_at DESC, n.id DESC
     LIMIT $2 OFFSET $3`,
    [market.id, options.limit, (options.page - 1) * options.limit],
  );
  const items: NewsItemView[] = rows.map((row) => ({
    id: row.id,
    source: row.source,
    title: row.title,
    link: row.link,
    summary: row.summary,
    publishedAt: row.published_at.toISOString(),
    fetchedAt: row.fetched_at.toISOString(),
    formType: row.form_type,
    cik: row.cik,
    company: row.company,
    matchedBy: row.matched_by,
  }));
  return { symbol: market.symbol, items, page: options.page, limit: options.limit, total };
}
