import type { DataSource, EntityManager } from 'typeorm';

/** Followers per notifications.deliver job of a COT alert. */
export const COT_FAN_OUT_BATCH_SIZE = 1000;

export interface CotFollowView {
  cftcCode: string;
  name: string;
  symbol: string | null;
  category: string | null;
  exchange: string | null;
  followedAt: string;
}

/**
 * Follows (true) or unfollows (false) an instrument by its CFTC code. Idempotent: following twice
 * keeps the first row, unfollowing what is not followed changes nothing. Null: no such instrument.
 */
export async function setCotFollow(db: DataSource | EntityManager, userId: number, cftcCode: string, follow: boolean): Promise<boolean | null> {
  const [instrument]: { id: number }[] = await db.query('SELECT id FROM cot_instruments WHERE cftc_code = $1', [cftcCode]);
  if (!instrument) return null;
  if (follow) {
    await db.query('INSERT INTO cot_follows (user_id, instrument_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, instrument.id]);
  } else {
    await db.query('DELETE FROM cot_follows WHERE user_id = $1 AND instrument_id = $2', [userId, instrument.id]);
  }
  return follow;
}

/** The instruments a user follows, by name. */
export async function listCotFollows(db: DataSource | EntityManager, userId: number): Promise<CotFollowView[]> {
  const rows: { cftc_code: string; instrument_name: string; symbol: string | null; category: string | null; exchange: string | null; created_at: Date }[] =
    await db.query(
      `SELECT i.cftc_code, i.instrument_name, i.symbol, i.category, i.exchange, f.created_at
       FROM cot_follows f JOIN cot_instruments i ON i.id = f.instrument_id
       WHERE f.user_id = $1 ORDER BY i.instrument_name, i.cftc_code`,
      [userId],
    );
  return rows.map((r) => ({
    cftcCode: r.cftc_code,
    name: r.instrument_name,
    symbol: r.symbol,
    category: r.category,
    exchange: r.exchange,
    followedAt: new Date(r.created_at).toISOString(),
  }));
}

/** One keyset page of an instrument's followers (accounts not deleted), by user id after `afterUserId`. */
export async function cotFollowerBatch(
  db: DataSource | EntityManager,
  options: { instrumentId: number; afterUserId: number; limit: number },
): Promise<number[]> {
  const rows: { id: number }[] = await db.query(
    `SELECT u.id FROM cot_follows f JOIN users u ON u.id = f.user_id
     WHERE f.instrument_id = $1 AND u.id > $2 AND u.deleted_at IS NULL
     ORDER BY u.id LIMIT $3`,
    [options.instrumentId, options.afterUserId, options.limit],
  );
  return rows.map((r) => Number(r.id));
}
