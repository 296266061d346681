import type { DataSource, EntityManager } from 'typeorm';
import type { Entitlements } from '../billing/entitlements';
import type { InsiderFollowSettings, InsiderFollowView } from './insiders.shapes';
import { findInsiderCompany, followSettingsOf } from './insiders-read.store';

/**
 * A user's follows of companies' insider trades (insider_follows), by ticker or, for an issuer
 * without one, its 10-digit CIK. What notifies the follower is in the row (see the alerts in
 * docs/insiders.md); the alerts read the followers themselves.
 */
type Db = DataSource | EntityManager;
type Row = Record<string, unknown>;

function followView(row: Row): InsiderFollowView {
  return {
    company: { cik: String(row.cik), ticker: row.ticker === null ? null : String(row.ticker), name: String(row.company_name) },
    ...followSettingsOf(row),
    createdAt: new Date(row.created_at as string | Date).toISOString(),
  };
}

const FOLLOW_SELECT = `SELECT c.cik, c.ticker, c.company_name, f.notify_cluster_buy, f.officer_buy_min_value, f.notify_unusual_activity, f.created_at
  FROM insider_follows f JOIN insider_trading_companies c ON c.id = f.company_id`;

/** The companies a user follows, by ticker (issuers without one last, by name). */
export async function listInsiderFollows(db: Db, userId: number): Promise<InsiderFollowView[]> {
  const rows: Row[] = await db.query(`${FOLLOW_SELECT} WHERE f.user_id = $1 ORDER BY c.ticker NULLS LAST, c.company_name, c.cik`, [userId]);
  return rows.map(followView);
}

export interface InsiderFollowChange {
  follow: InsiderFollowView;
  /** The company has no filing stored yet: its recent ones are worth fetching (insiders.backfill-company). */
  hasFilings: boolean;
}

/**
 * Follows a company with these settings, or changes them (a row whose settings are unchanged is
 * not written). Null: no company with that ticker or CIK. A NEW follow must fit the plan
 * (`insiderFollows`) and a writable account (EntitlementError); changing a follow's settings does not.
 */
export async function upsertInsiderFollow(
  dataSource: DataSource,
  userId: number,
  key: string,
  settings: InsiderFollowSettings,
  access: { entitlements: Entitlements; now: Date },
): Promise<InsiderFollowChange | null> {
  const company = await findInsiderCompany(dataSource, key);
  if (!company) return null;
  return dataSource.transaction((manager) => writeInsiderFollow(manager, userId, company.id, settings, access));
}

async function writeInsiderFollow(
  db: EntityManager,
  userId: number,
  companyId: number,
  settings: InsiderFollowSettings,
  access: { entitlements: Entitlements; now: Date },
): Promise<InsiderFollowChange> {
  const [followed]: Row[] = await db.query('SELECT 1 FROM insider_follows WHERE user_id = $1 AND company_id = $2', [userId, companyId]);
  // Counted under the entitlements' per-user lock: two concurrent follows cannot both take the last place.
  if (!followed) await access.entitlements.checkLimit(db, userId, 'insiderFollows', () => countInsiderFollows(db, userId), access.now);
  const minValue = settings.officerBuyMinValue === null ? null : String(settings.officerBuyMinValue);
  await db.query(
    `INSERT INTO insider_follows (user_id, company_id, notify_cluster_buy, officer_buy_min_value, notify_unusual_activity)
     VALUES ($1, $2, $3, $4::numeric, $5)
     ON CONFLICT (user_id, company_id) DO UPDATE
       SET notify_cluster_buy = EXCLUDED.notify_cluster_buy, officer_buy_min_value = EXCLUDED.officer_buy_min_value,
           notify_unusual_activity = EXCLUDED.notify_unusual_activity
       WHERE (insider_follows.notify_cluster_buy, insider_follows.officer_buy_min_value, insider_follows.notify_unusual_activity)
             IS DISTINCT FROM (EXCLUDED.notify_cluster_buy, EXCLUDED.officer_buy_min_value, EXCLUDED.notify_unusual_activity)`,
    [userId, companyId, settings.notifyClusterBuy, minValue, settings.notifyUnusualActivity],
  );
  const [row]: Row[] = await db.query(`${FOLLOW_SELECT} WHERE f.user_id = $1 AND f.company_id = $2`, [userId, companyId]);
  const [filed]: { found: boolean }[] = await db.query('SELECT EXISTS (SELECT 1 FROM insider_trading_filings WHERE company_id = $1) AS found', [companyId]);
  return { follow: followView(row!), hasFilings: filed?.found === true };
}

async function countInsiderFollows(db: Db, userId: number): Promise<number> {
  const [row]: { n: number }[] = await db.query('SELECT count(*)::int AS n FROM insider_follows WHERE user_id = $1', [userId]);
  return row.n;
}

/** Unfollows (idempotent): true when a follow was removed, false when there was none, null when no such company. */
export async function deleteInsiderFollow(db: Db, userId: number, key: string): Promise<boolean | null> {
  const company = await findInsiderCompany(db, key);
  if (!company) return null;
  const [{ n }]: { n: number }[] = await db.query(
    'WITH d AS (DELETE FROM insider_follows WHERE user_id = $1 AND company_id = $2 RETURNING 1) SELECT count(*)::int AS n FROM d',
    [userId, company.id],
  );
  return n > 0;
}
