import type { DataSource, EntityManager } from 'typeorm';
import { INVITATION_TTL_DAYS } from '../accounts/team-rules';

export interface PurgeExpiredResult {
  verificationTokensCleared: number;
  resetTokensCleared: number;
  invitationsExpired: number;
  sessionsDeleted: number;
}

async function count(manager: EntityManager, sql: string, params: unknown[]): Promise<number> {
  const rows: { n: number }[] = await manager.query(`WITH changed AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM changed`, params);
  return rows[0].n;
}

/**
 * Clears everything that has expired at `now`, in one transaction. Idempotent: a second run at
 * the same instant changes nothing, so retries and overlapping runs are safe.
 */
export function purgeExpired(dataSource: DataSource, now: Date): Promise<PurgeExpiredResult> {
  const invitationCutoff = new Date(now.getTime() - INVITATION_TTL_DAYS * 24 * 3600 * 1000);
  return dataSource.transaction(async (manager) => ({
    verificationTokensCleared: await count(
      manager,
      `UPDATE users SET verification_token = NULL, verification_token_expiry = NULL
        WHERE verification_token_expiry < $1`,
      [now],
    ),
    resetTokensCleared: await count(
      manager,
      `UPDATE users SET reset_token = NULL, reset_token_expiry = NULL WHERE reset_token_expiry < $1`,
      [now],
    ),
    invitationsExpired: await count(
      manager,
      `UPDATE invitations SET status = 'expired' WHERE status = 'pending' AND invited_at < $1`,
      [invitationCutoff],
    ),
    sessionsDeleted: await count(manager, `DELETE FROM sessions WHERE expire < $1`, [now]),
  }));
}
