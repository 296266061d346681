import type { AlertsDb } from './alerts.store';
import type { FiringRow } from './alert-firings.store';
import type { NewsAlertItem } from './alert-news-match';

/** The news alerts' queries (the trigger path's own are in alert-firings.store.ts). */

/** The active, unexpired news alerts of these markets (of live accounts), with the market each one is on. */
export async function newsAlertsOfMarkets(db: AlertsDb, marketIds: readonly number[], now: Date): Promise<{ id: number; market_id: number }[]> {
  if (!marketIds.length) return [];
  return db.query(
    `SELECT a.id, a.market_id FROM alerts a JOIN users u ON u.id = a.user_id AND u.deleted_at IS NULL
     WHERE a.market_id = ANY($1::int[]) AND a.condition = 'news' AND a.is_active AND (a.expires_at IS NULL OR a.expires_at > $2)
     ORDER BY a.id`,
    [marketIds, now],
  );
}

/** The active, unexpired digest news alerts (of live accounts). */
export async function digestNewsAlerts(db: AlertsDb, now: Date): Promise<{ id: number; market_id: number; created_at: Date }[]> {
  return db.query(
    `SELECT a.id, a.market_id, a.created_at FROM alerts a JOIN users u ON u.id = a.user_id AND u.deleted_at IS NULL
     WHERE a.condition = 'news' AND a.is_active AND (a.expires_at IS NULL OR a.expires_at > $1) AND a.params->>'digest' = 'true'
     ORDER BY a.id`,
    [now],
  );
}

interface NewsItemRow {
  id: number;
  source: string;
  title: string;
  link: string | null;
  summary: string | null;
  published_at: Date;
  form_type: string | null;
}

function toItem(row: NewsItemRow): NewsAlertItem {
  return { id: row.id, source: row.source, title: row.title, link: row.link, summary: row.summary, publishedAt: row.published_at, formType: row.form_type };
}

/** The stored items among these ids (a trimmed one is gone). */
export async function newsItemsById(db: AlertsDb, ids: readonly number[]): Promise<Map<number, NewsAlertItem>> {
  const rows: NewsItemRow[] = await db.query(
    `SELECT id, source, title, link, summary, published_at, form_type FROM news_items WHERE id = ANY($1::int[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, toItem(row)]));
}

/** The items linked to these markets that were fetched within [from, to), newest first, by market. */
export async function newsItemsFetchedBetween(
  db: AlertsDb,
  marketIds: readonly number[],
  from: Date,
  to: Date,
): Promise<Map<number, (NewsAlertItem & { fetchedAt: Date })[]>> {
  const byMarket = new Map<number, (NewsAlertItem & { fetchedAt: Date })[]>();
  if (!marketIds.length) return byMarket;
  const rows: (NewsItemRow & { market_id: number; fetched_at: Date })[] = await db.query(
    `SELECT l.market_id, n.id, n.source, n.title, n.link, n.summary, n.published_at, n.form_type, n.fetched_at
     FROM news_item_markets l JOIN news_items n ON n.id = l.news_item_id
     WHERE l.market_id = ANY($1::int[]) AND n.fetched_at >= $2 AND n.fetched_at < $3
     ORDER BY n.published_at DESC, n.id DESC`,
    [marketIds, from, to],
  );
  for (const row of rows) {
    let items = byMarket.get(row.market_id);
    if (!items) byMarket.set(row.market_id, (items = []));
    items.push({ ...toItem(row), fetchedAt: row.fetched_at });
  }
  return byMarket;
}

/** The firings of these alerts written at `at`, with their notifications: what a retried news job delivers again. */
export async function firingRowsOfAlertsAt<N>(db: AlertsDb, alertIds: readonly number[], at: Date): Promise<FiringRow<N>[]> {
  if (!alertIds.length) return [];
  return db.query(
    `SELECT l.id AS log_id, l.alert_id, a.name, a.notify_push, a.notify_email, a.webhook_url,
       n.id, n.user_id, n.title, n.message, n.type, n.activity_type, n.exchange_id, n.symbol_id, n.details, n.read_at, n.created_at, n.dedupe_key
     FROM alert_logs l JOIN alerts a ON a.id = l.alert_id JOIN notifications n ON n.id = l.notification_id
     WHERE l.alert_id = ANY($1::int[]) AND l.triggered_at = $2
     ORDER BY l.id`,
    [alertIds, at],
  );
}
