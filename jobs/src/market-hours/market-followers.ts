import type { DataSource, EntityManager } from 'typeorm';
import type { MarketEventKind } from './market-hours';
import { MARKET_PREFERENCE_COLUMNS } from './market-notification';

/**
 * Users who have never chosen follow these (spec: default XNYS, XNAS, XLON). The defaults are
 * applied at query time, not stored at sign-up: a user with no exchange_follows rows follows
 * them; the first follow or unfollow stores the defaults and the change as rows.
 */
export const DEFAULT_FOLLOWED_EXCHANGES = ['XNYS', 'XNAS', 'XLON'] as const;

export const FAN_OUT_BATCH_SIZE = 1000;

/**
 * One keyset page of the users to notify of an event: following the exchange (explicitly, or by
 * default), with the kind's preference on (no preferences row: the defaults, all on), ordered by
 * id after `afterUserId`.
 */
export async function followerBatch(
  db: DataSource | EntityManager,
  options: { exchangeId: string; kind: MarketEventKind; afterUserId: number; limit: number },
): Promise<number[]> {
  const flag = MARKET_PREFERENCE_COLUMNS[options.kind];
  const rows: { id: number }[] = await db.query(
    `SELECT u.id FROM users u
     LEFT JOIN user_preferences p ON p.user_id = u.id
     WHERE u.id > $1 AND u.deleted_at IS NULL AND COALESCE(p.${flag}, true)
       AND (EXISTS (SELECT 1 FROM exchange_follows f WHERE f.user_id = u.id AND f.exchange_id = $2)
            OR ($2 = ANY($3::varchar[]) AND NOT EXISTS (SELECT 1 FROM exchange_follows f WHERE f.user_id = u.id)))
     ORDER BY u.id LIMIT $4`,
    [options.afterUserId, options.exchangeId, [...DEFAULT_FOLLOWED_EXCHANGES], options.limit],
  );
  return rows.map((r) => Number(r.id));
}

/** The exchanges a user follows (the defaults when they never chose). */
export async function followedExchangeIds(db: DataSource | EntityManager, userId: number): Promise<string[]> {
  const rows: { exchange_id: string }[] = await db.query('SELECT exchange_id FROM exchange_follows WHERE user_id = $1 ORDER BY exchange_id', [userId]);
  return rows.length ? rows.map((r) => r.exchange_id) : [...DEFAULT_FOLLOWED_EXCHANGES];
}

/** Unfollowing the only followed exchange: no rows would mean "the defaults", not "none". */
export class LastFollowError extends Error {
  constructor(readonly exchangeId: string) {
    super(`${exchangeId} is the only exchange followed: follow another first, or turn market notifications off in the preferences`);
    this.name = 'LastFollowError';
  }
}

/**
 * Follows or unfollows an exchange. A user still on the defaults first gets them as rows, so the
 * change keeps the others. Unfollowing the only one left is refused (LastFollowError, nothing
 * changes): no rows would mean the defaults again, and the preference flags turn notifications off.
 */
export async function setExchangeFollow(db: DataSource, userId: number, exchangeId: string, follow: boolean): Promise<string[]> {
  return db.transaction(async (manager) => {
    // Serialises concurrent changes of one user (the defaults check-then-insert).
    await manager.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const current: { exchange_id: string }[] = await manager.query('SELECT exchange_id FROM exchange_follows WHERE user_id = $1', [userId]);
    if (!current.length) {
      await manager.query(
        `INSERT INTO exchange_follows (user_id, exchange_id)
         SELECT $1, e.id FROM exchanges e WHERE e.id = ANY($2::varchar[]) ON CONFLICT DO NOTHING`,
        [userId, [...DEFAULT_FOLLOWED_EXCHANGES]],
      );
    }
    if (follow) {
      await manager.query('INSERT INTO exchange_follows (user_id, exchange_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, exchangeId]);
    } else {
      const [, deleted]: [unknown, number] = await manager.query('DELETE FROM exchange_follows WHERE user_id = $1 AND exchange_id = $2', [userId, exchangeId]);
      const [{ left }]: { left: string }[] = await manager.query('SELECT count(*) AS left FROM exchange_follows WHERE user_id = $1', [userId]);
      if (deleted && Number(left) === 0) throw new LastFollowError(exchangeId);
    }
    return followedExchangeIds(manager, userId);
  });
}
